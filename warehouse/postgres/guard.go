package postgres

// The guard: an allow-list over the server's own parse of a statement.
//
// The statement is parsed by libpg_query (pg_query_go), which is
// PostgreSQL's own grammar and lexer, so identifiers come out as the server
// reads them: U&"…" escapes decoded, unquoted names folded to lower case,
// strings, dollar quotes and nested comments ended where the server ends
// them. The session is pinned at connect (Open) to the settings libpg_query
// lexes with: standard_conforming_strings=on and client_encoding=UTF8.
//
// The tree is then walked fail-closed. Every node must be of a kind known
// to be harmless (guard_allow.go), and the nodes that name something are
// checked against lists:
//
//   - a function call must name a side-effect-free built-in, unqualified
//     or qualified with pg_catalog (allowedFunctions);
//   - an operator must be a built-in symbol, unqualified or
//     OPERATOR(pg_catalog.…);
//   - a cast or column definition may only name a built-in type
//     (allowedTypes);
//   - a relation must be a CTE in scope or a relation of the database's
//     own schemas (catalog), and an unqualified name must resolve, as the
//     server resolves it on the session's search path, to that relation:
//     pg_catalog is searched first unless the path names it later, so a
//     bare pg_class or pg_shadow is a system catalog, and so would be a
//     bare pg_settings even with a table public.pg_settings;
//   - one statement only: a SELECT (set operations, VALUES and TABLE
//     included) without INTO or a locking clause, EXPLAIN of one, or SHOW
//     of a listed setting.
//
// PostgreSQL resolves an unqualified function or operator among every
// schema on the search path, by argument types: where a VOLATILE function
// of an allowed name exists outside pg_catalog (an extension's, the
// owner's), the unqualified call is refused and pg_catalog.name is asked
// for. The same goes for t.f, which calls f(t) when t has no column f.
//
// A string argument is data: no function that runs its argument as SQL is
// on any list, so what a string holds does not matter.

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"github.com/pganalyze/pg_query_go/v6/parser"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.Guarder = (*Source)(nil)

// Guard returns nil when sql is one statement the allow-list admits, else
// an error wrapping warehouse.ErrRejected that names what is not allowed.
// It runs nothing but, the first time, the listing of the tables a
// statement may read (Tables, which later calls refresh).
func (s *Source) Guard(ctx context.Context, sql string) error {
	_, err := s.guard(ctx, sql)
	return err
}

// guard is Guard returning the statement's parse, which Query reuses.
func (s *Source) guard(ctx context.Context, sql string) (*pg_query.RawStmt, error) {
	raw, err := parse(sql)
	if err != nil {
		return nil, err
	}
	cat := s.catalog.Load()
	if cat == nil {
		if _, err := s.Tables(ctx); err != nil {
			return nil, fmt.Errorf("postgres: guard: list the tables a statement may read: %w", err)
		}
		cat = s.catalog.Load()
	}
	if err := (checker{cat: cat, major: s.major}).statement(raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// guard is Guard for a catalog given (tests).
func (c checker) guard(sql string) error {
	raw, err := parse(sql)
	if err != nil {
		return err
	}
	return c.statement(raw)
}

// maxDepth bounds the estimated depth of a statement's parse tree (see
// boundDepth). libpg_query recurses on the C stack when it hands its tree
// over, and about 25,000 levels overflow it and kill the process: an
// expression like 1+1+…+1 nests without a single bracket, so the bracket
// bound of warehouse.Precheck does not cover it. discover's widest
// statement (a UNION ALL of 200 SELECTs) is estimated at about 210.
const maxDepth = 1000

// parse returns the one statement in sql, parsed by the server's grammar,
// after the bounds no parser should go without: warehouse.Precheck (size,
// NUL bytes, brackets) and boundDepth.
func parse(sql string) (*pg_query.RawStmt, error) {
	if err := warehouse.Precheck(sql); err != nil {
		return nil, err
	}
	if err := boundDepth(sql); err != nil {
		return nil, err
	}
	tree, err := pg_query.Parse(sql)
	if err != nil {
		return nil, warehouse.Rejectf("the statement does not parse: %s", err)
	}
	switch n := len(tree.Stmts); {
	case n == 0:
		return nil, warehouse.Rejectf("empty statement")
	case n > 1:
		return nil, warehouse.Rejectf("only one statement is allowed (found %d)", n)
	}
	return tree.Stmts[0], nil
}

// boundDepth refuses a statement whose parse tree could nest deeper than
// maxDepth, judged from the server's own tokens (libpg_query's scanner,
// which does not recurse) before the parser sees them. The estimate is an
// upper bound of the depth: within each bracket (and CASE … END), every
// token that may stack one expression on another (an operator, ::, IS,
// NOT, COLLATE …) counts one level until a token that only separates
// siblings of a flat list (a comma; AND and OR, whose chains the parser
// flattens; a clause keyword); UNION, INTERSECT, EXCEPT, JOIN and BETWEEN,
// whose chains cross those separators, count for the whole bracket; a
// bracket adds its own depth plus one to the level it sits in.
func boundDepth(sql string) error {
	scan, err := parser.ScanToProtobuf(sql)
	if err != nil {
		return warehouse.Rejectf("the statement does not parse: %s", err)
	}
	stack := []depthFrame{{}}
	closeFrame := func() {
		d := stack[len(stack)-1].depth()
		stack = stack[:len(stack)-1]
		parent := &stack[len(stack)-1]
		parent.child = max(parent.child, d+1)
	}
	err = eachToken(scan, func(tok pg_query.Token) {
		top := &stack[len(stack)-1]
		switch {
		case leafTokens[tok]:
		case tok == pg_query.Token_ASCII_40 || tok == pg_query.Token_ASCII_91 || tok == pg_query.Token_CASE:
			stack = append(stack, depthFrame{})
		case tok == pg_query.Token_ASCII_41 || tok == pg_query.Token_ASCII_93 || tok == pg_query.Token_END_P:
			if len(stack) > 1 {
				closeFrame()
			}
		case separatorTokens[tok]:
			top.endSegment()
		case chainTokens[tok]:
			top.chain++
		default:
			top.ops++
		}
	})
	if err != nil {
		return warehouse.Rejectf("the statement does not parse: %s", err)
	}
	for len(stack) > 1 { // unbalanced: the parser will say so
		closeFrame()
	}
	if d := stack[0].depth(); d > maxDepth {
		return warehouse.Rejectf("the statement nests about %d levels deep; at most %d are allowed", d, maxDepth)
	}
	return nil
}

// eachToken calls f with the kind of every token of a pg_query
// ScanResult in wire format. Reading the wire directly skips building a
// Go value per token, which on a 4 MB statement costs as much as the scan.
func eachToken(scan []byte, f func(pg_query.Token)) error {
	const tokensField, tokenField = 2, 4 // ScanResult.tokens, ScanToken.token
	for len(scan) > 0 {
		num, typ, n := protowire.ConsumeTag(scan)
		if n < 0 {
			return protowire.ParseError(n)
		}
		scan = scan[n:]
		if num != tokensField || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, scan); n < 0 {
				return protowire.ParseError(n)
			}
			scan = scan[n:]
			continue
		}
		msg, n := protowire.ConsumeBytes(scan)
		if n < 0 {
			return protowire.ParseError(n)
		}
		scan = scan[n:]
		var tok pg_query.Token
		for len(msg) > 0 {
			num, typ, n := protowire.ConsumeTag(msg)
			if n < 0 {
				return protowire.ParseError(n)
			}
			msg = msg[n:]
			if num == tokenField && typ == protowire.VarintType {
				v, n := protowire.ConsumeVarint(msg)
				if n < 0 {
					return protowire.ParseError(n)
				}
				tok, msg = pg_query.Token(v), msg[n:]
				continue
			}
			if n = protowire.ConsumeFieldValue(num, typ, msg); n < 0 {
				return protowire.ParseError(n)
			}
			msg = msg[n:]
		}
		f(tok)
	}
	return nil
}

// depthFrame is boundDepth's count for one bracket: chain for the chains
// that cross separators, ops and child (the deepest bracket inside) for
// the current run between separators, best for the deepest run so far.
type depthFrame struct{ chain, ops, child, best int }

func (f *depthFrame) endSegment() {
	f.best = max(f.best, f.ops+f.child)
	f.ops, f.child = 0, 0
}

func (f *depthFrame) depth() int {
	f.endSegment()
	return f.chain + f.best
}

var (
	// leafTokens add no level: names, literals, parameters, comments.
	leafTokens = map[pg_query.Token]bool{
		pg_query.Token_IDENT: true, pg_query.Token_UIDENT: true, pg_query.Token_FCONST: true,
		pg_query.Token_SCONST: true, pg_query.Token_USCONST: true, pg_query.Token_BCONST: true,
		pg_query.Token_XCONST: true, pg_query.Token_ICONST: true, pg_query.Token_PARAM: true,
		pg_query.Token_SQL_COMMENT: true, pg_query.Token_C_COMMENT: true,
	}
	// separatorTokens only ever separate siblings of a flat list or clause.
	separatorTokens = map[pg_query.Token]bool{
		pg_query.Token_ASCII_44: true, pg_query.Token_ASCII_59: true, // , ;
		pg_query.Token_AND: true, pg_query.Token_OR: true,
		pg_query.Token_WHEN: true, pg_query.Token_THEN: true, pg_query.Token_ELSE: true,
		pg_query.Token_SELECT: true, pg_query.Token_WHERE: true, pg_query.Token_GROUP_P: true,
		pg_query.Token_HAVING: true, pg_query.Token_ORDER: true, pg_query.Token_LIMIT: true,
		pg_query.Token_OFFSET: true, pg_query.Token_WINDOW: true, pg_query.Token_FETCH: true,
		pg_query.Token_ON: true, pg_query.Token_AS: true,
	}
	// chainTokens nest left-deep across separators.
	chainTokens = map[pg_query.Token]bool{
		pg_query.Token_UNION: true, pg_query.Token_INTERSECT: true, pg_query.Token_EXCEPT: true,
		pg_query.Token_JOIN: true, pg_query.Token_BETWEEN: true,
	}
)

// checker walks one parsed statement against cat. major is the server's
// major version (grammarMajor when unknown).
type checker struct {
	cat   *catalog
	major int
}

// walker carries the CTE names in scope down the tree, innermost last.
type walker struct {
	checker
	scope []string
}

// statement checks the statement kind, then everything in it.
func (c checker) statement(raw *pg_query.RawStmt) error {
	w := &walker{checker: c}
	stmt := raw.GetStmt()
	switch {
	case stmt.GetSelectStmt() != nil:
		return w.selectStmt(stmt.GetSelectStmt())
	case stmt.GetExplainStmt() != nil:
		return w.explain(stmt.GetExplainStmt())
	case stmt.GetVariableShowStmt() != nil:
		return show(stmt.GetVariableShowStmt())
	}
	return warehouse.Rejectf("only SELECT, EXPLAIN and SHOW are allowed, not %s", describe(inner(stmt)))
}

// explain allows EXPLAIN, with options that only change what the plan
// shows, of a statement that passes by itself (ANALYZE runs it).
func (w *walker) explain(e *pg_query.ExplainStmt) error {
	for _, o := range e.GetOptions() {
		d := o.GetDefElem()
		if d == nil || !explainOptions[strings.ToLower(d.GetDefname())] {
			return warehouse.Rejectf("EXPLAIN option %s is not allowed", d.GetDefname())
		}
		if a := d.GetArg(); a != nil && a.GetString_() == nil && a.GetBoolean() == nil &&
			a.GetInteger() == nil && a.GetFloat() == nil {
			return warehouse.Rejectf("EXPLAIN option %s has a value that is not a plain word or number", d.GetDefname())
		}
	}
	sel := e.GetQuery().GetSelectStmt()
	if sel == nil {
		return warehouse.Rejectf("EXPLAIN is allowed of a SELECT only, not of %s", describe(inner(e.GetQuery())))
	}
	return w.selectStmt(sel)
}

// show allows SHOW of one listed setting.
func show(s *pg_query.VariableShowStmt) error {
	name := strings.ToLower(s.GetName())
	if name == "all" {
		return warehouse.Rejectf("SHOW ALL is not allowed (it lists file paths and commands too); SHOW one setting instead")
	}
	if !showable(name) {
		return warehouse.Rejectf("SHOW %s is not allowed: it is not on the list of settings that may be shown", s.GetName())
	}
	return nil
}

// selectStmt checks one SELECT (or set operation, or VALUES) and the
// queries nested in it. Its WITH names are in scope for its own clauses
// and nested queries, and gone once it is done.
func (w *walker) selectStmt(s *pg_query.SelectStmt) error {
	if s.GetIntoClause() != nil {
		return warehouse.Rejectf("SELECT INTO is not allowed (it creates a table)")
	}
	if len(s.GetLockingClause()) > 0 {
		return warehouse.Rejectf("FOR UPDATE/SHARE is not allowed (it locks rows)")
	}
	mark := len(w.scope)
	defer func() { w.scope = w.scope[:mark] }()
	if wc := s.GetWithClause(); wc != nil {
		if err := w.with(wc); err != nil {
			return err
		}
	}
	return w.fields(s.ProtoReflect(), "with_clause")
}

// with puts the CTEs of wc in scope as PostgreSQL does: without RECURSIVE,
// each query sees the CTEs before it only; with RECURSIVE, every query
// sees all of them, itself included. Each must be a plain SELECT: a
// data-modifying CTE (INSERT … RETURNING) is not.
func (w *walker) with(wc *pg_query.WithClause) error {
	var ctes []*pg_query.CommonTableExpr
	for _, n := range wc.GetCtes() {
		cte := n.GetCommonTableExpr()
		if cte == nil {
			return warehouse.Rejectf("WITH holds %s, not a query", describe(inner(n)))
		}
		ctes = append(ctes, cte)
	}
	if wc.GetRecursive() {
		for _, cte := range ctes {
			w.scope = append(w.scope, cte.GetCtename())
		}
	}
	for _, cte := range ctes {
		body := cte.GetCtequery().GetSelectStmt()
		if body == nil {
			return warehouse.Rejectf("WITH query %s is %s; only SELECT is allowed there", cte.GetCtename(), describe(inner(cte.GetCtequery())))
		}
		if err := w.selectStmt(body); err != nil {
			return err
		}
		if err := w.fields(cte.ProtoReflect(), "ctequery"); err != nil {
			return err
		}
		if !wc.GetRecursive() {
			w.scope = append(w.scope, cte.GetCtename())
		}
	}
	return nil
}

// inScope reports whether name is a CTE visible here.
func (w *walker) inScope(name string) bool {
	for _, s := range w.scope {
		if s == name {
			return true
		}
	}
	return false
}

// node checks one message of the tree and what it holds.
func (w *walker) node(m protoreflect.Message) error {
	switch n := m.Interface().(type) {
	case *pg_query.Node:
		if in := inner(n); in != nil {
			return w.node(in.ProtoReflect())
		}
		return nil
	case *pg_query.SelectStmt:
		return w.selectStmt(n)
	case *pg_query.RangeVar:
		return w.relation(n)
	case *pg_query.FuncCall:
		if err := w.function(n.GetFuncname()); err != nil {
			return err
		}
	case *pg_query.A_Expr:
		if err := w.expr(n); err != nil {
			return err
		}
	case *pg_query.SubLink:
		if err := w.operator(n.GetOperName()); err != nil {
			return err
		}
	case *pg_query.SortBy:
		if err := w.operator(n.GetUseOp()); err != nil {
			return err
		}
	case *pg_query.TypeCast:
		// Its TypeName is checked below, as every TypeName is.
	case *pg_query.TypeName:
		if err := typeName(n); err != nil {
			return err
		}
	case *pg_query.RangeTableSample:
		if err := sampleMethod(n.GetMethod()); err != nil {
			return err
		}
	case *pg_query.ColumnRef:
		if f := n.GetFields(); len(f) > 1 {
			if err := w.attribute(f[len(f)-1]); err != nil {
				return err
			}
		}
	case *pg_query.A_Indirection:
		for _, f := range n.GetIndirection() {
			if err := w.attribute(f); err != nil {
				return err
			}
		}
	default:
		name := string(m.Descriptor().Name())
		switch {
		case sqlJSONNodes[name] && w.major < grammarMajor:
			return warehouse.Rejectf("SQL/JSON syntax (JSON_TABLE, JSON_VALUE, JSON_OBJECT(… VALUE …), IS JSON …) needs PostgreSQL %d; the server is %d", grammarMajor, w.major)
		case !safeNodes[name] && !sqlJSONNodes[name]:
			return warehouse.Rejectf("%s is not allowed", describe(n))
		}
	}
	return w.fields(m)
}

// fields checks every message m holds, in field order (so the first of
// several offences is always the one named), except those in skip. Range
// visits only the fields that are set, in the order they are declared.
func (w *walker) fields(m protoreflect.Message, skip ...protoreflect.Name) error {
	var err error
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() == nil || fd.IsMap() || contains(skip, fd.Name()):
		case !fd.IsList():
			err = w.node(v.Message())
		default:
			for j, l := 0, v.List(); j < l.Len() && err == nil; j++ {
				err = w.node(l.Get(j).Message())
			}
		}
		return err == nil
	})
	return err
}

func contains(list []protoreflect.Name, n protoreflect.Name) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// relation allows a CTE in scope and a relation of cat. A bare name must
// resolve to the relation of that name, as the server resolves it; a
// schema-qualified one must be in cat (public is Schema "").
func (w *walker) relation(rv *pg_query.RangeVar) error {
	name, schema := rv.GetRelname(), rv.GetSchemaname()
	switch {
	case rv.GetCatalogname() != "":
		return warehouse.Rejectf("database-qualified names (%s.%s.%s) are not allowed", rv.GetCatalogname(), schema, name)
	case schema == "" && w.inScope(name):
		return nil
	case schema == "" && w.cat.bare[name]:
		return nil
	case schema == "" && w.cat.rels.Has("", name):
		return warehouse.Rejectf("%s, unqualified, is not the table public.%s: a system catalog or another schema on the search path comes first; write public.%s",
			name, name, name)
	case schema == "":
		return warehouse.NotAllowed(name)
	}
	key := schema
	if key == "public" {
		key = ""
	}
	if !w.cat.rels.Has(key, name) {
		return warehouse.NotAllowed(schema + "." + name)
	}
	return nil
}

// function allows a function of allowedFunctions, unqualified or in
// pg_catalog. An unqualified name is refused when a volatile function of
// the same name exists outside pg_catalog: PostgreSQL picks the best match
// among all schemas on the search path, which could be that one.
func (w *walker) function(funcname []*pg_query.Node) error {
	parts := strs(funcname)
	name := parts[len(parts)-1]
	display := strings.Join(parts, ".")
	switch {
	case len(parts) > 2 || len(parts) == 2 && parts[0] != "pg_catalog":
		return warehouse.FunctionNotAllowed(display)
	case !allowedFunctions[name]:
		return warehouse.FunctionNotAllowed(display)
	case len(parts) == 1 && w.cat.volatileFuncs[name]:
		return warehouse.Rejectf("function %s has a volatile namesake outside pg_catalog that the call could resolve to; write pg_catalog.%s", name, name)
	}
	return nil
}

// attribute refuses t.f and (expr).f where f is a volatile function
// outside pg_catalog: when t has no column f, PostgreSQL reads the
// attribute notation as the call f(t).
func (w *walker) attribute(field *pg_query.Node) error {
	if s := field.GetString_(); s != nil && w.cat.volatileFuncs[s.GetSval()] {
		return warehouse.Rejectf("%s names a volatile function outside pg_catalog, which x.%s would call when x has no such column", s.GetSval(), s.GetSval())
	}
	return nil
}

// expr checks the operator of an A_Expr; BETWEEN and its kin carry a
// keyword, not an operator, in Name.
func (w *walker) expr(e *pg_query.A_Expr) error {
	switch e.GetKind() {
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		return nil
	}
	return w.operator(e.GetName())
}

// operator allows a built-in operator symbol, bare or as
// OPERATOR(pg_catalog.op); an empty name (no operator) passes.
func (w *walker) operator(name []*pg_query.Node) error {
	if len(name) == 0 {
		return nil
	}
	parts := strs(name)
	op := parts[len(parts)-1]
	switch {
	case len(parts) > 2 || len(parts) == 2 && parts[0] != "pg_catalog" || !builtinOperators[op]:
		return warehouse.Rejectf("operator %s is not a built-in operator (only those of pg_catalog are allowed)", strings.Join(parts, "."))
	case len(parts) == 1 && w.cat.volatileOps[op]:
		return warehouse.Rejectf("operator %s has a volatile namesake outside pg_catalog; write OPERATOR(pg_catalog.%s)", op, op)
	}
	return nil
}

// typeName allows the built-in types of allowedTypes (arrays of them too).
func typeName(t *pg_query.TypeName) error {
	parts := strs(t.GetNames())
	display := strings.Join(parts, ".")
	switch {
	case t.GetSetof() || t.GetPctType():
		return warehouse.Rejectf("type %s: SETOF and %%TYPE are not allowed", display)
	case len(parts) == 0, len(parts) > 2, len(parts) == 2 && parts[0] != "pg_catalog", !allowedTypes[parts[len(parts)-1]]:
		return warehouse.Rejectf("type %s is not allowed: only built-in types of the list may be named (another type's input function could do anything)", display)
	}
	return nil
}

// sampleMethod allows TABLESAMPLE BERNOULLI and SYSTEM.
func sampleMethod(method []*pg_query.Node) error {
	parts := strs(method)
	if len(parts) == 2 && parts[0] == "pg_catalog" {
		parts = parts[1:]
	}
	if len(parts) != 1 || !tableSampleMethods[parts[0]] {
		return warehouse.Rejectf("TABLESAMPLE %s is not allowed (only BERNOULLI and SYSTEM)", strings.Join(parts, "."))
	}
	return nil
}

// strs returns the strings of a name list (funcname, operator or type
// name); a part that is not a string (A_Star) reads "*".
func strs(list []*pg_query.Node) []string {
	out := make([]string, len(list))
	for i, n := range list {
		if s := n.GetString_(); s != nil {
			out[i] = s.GetSval()
		} else {
			out[i] = "*"
		}
	}
	return out
}

// nodeOneof is the oneof of pg_query.Node that holds the node proper.
var nodeOneof = (&pg_query.Node{}).ProtoReflect().Descriptor().Oneofs().ByName("node")

// inner returns the message a Node wraps, nil for an empty Node.
func inner(n *pg_query.Node) protoreflect.ProtoMessage {
	if n == nil {
		return nil
	}
	m := n.ProtoReflect()
	fd := m.WhichOneof(nodeOneof)
	if fd == nil {
		return nil
	}
	return m.Get(fd).Message().Interface()
}

// describe names a node for a refusal.
func describe(m protoreflect.ProtoMessage) string {
	if m == nil {
		return "an empty statement"
	}
	name := string(m.ProtoReflect().Descriptor().Name())
	if words, ok := nodeNames[name]; ok {
		return words
	}
	return name
}

// catalog is what the guard knows of the database, from the last Tables:
// the relations a statement may read and the names that would resolve
// outside pg_catalog.
type catalog struct {
	// rels are the relations of the database's own schemas (every schema
	// but pg_catalog, information_schema and pg_toast): tables, views,
	// materialized views and partitions, whether the user may read them or
	// not (the server refuses those itself). Schema "" is public.
	rels *warehouse.Inventory
	// bare are the relation names that, unqualified, resolve to one of
	// rels under the session's search path, as the server decided.
	bare map[string]bool
	// volatileFuncs are the names of VOLATILE functions outside pg_catalog
	// (an extension's, the owner's); volatileOps the operator symbols
	// outside pg_catalog backed by one.
	volatileFuncs, volatileOps map[string]bool
}

// loadCatalog reads catalog in tx. Every statement here is ours.
func loadCatalog(ctx context.Context, tx pgx.Tx) (*catalog, error) {
	cat := &catalog{bare: map[string]bool{}, volatileFuncs: map[string]bool{}, volatileOps: map[string]bool{}}
	rows, err := tx.Query(ctx, `
		SELECT n.nspname, c.relname,
		       coalesce(pg_catalog.to_regclass(pg_catalog.quote_ident(c.relname))::oid = c.oid, false)`+relFromAll)
	if err != nil {
		return nil, err
	}
	var tables []warehouse.Table
	var schema, name string
	var bare bool
	_, err = pgx.ForEachRow(rows, []any{&schema, &name, &bare}, func() error {
		if schema == "public" {
			schema = ""
		}
		tables = append(tables, warehouse.Table{Name: warehouse.TableName{Schema: schema, Name: name}})
		if bare {
			cat.bare[name] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	cat.rels = warehouse.NewInventory(tables, nil)
	for _, q := range []struct {
		sql string
		set map[string]bool
	}{
		{`SELECT DISTINCT p.proname FROM pg_catalog.pg_proc p
			WHERE p.pronamespace <> 'pg_catalog'::pg_catalog.regnamespace AND p.provolatile = 'v'`, cat.volatileFuncs},
		{`SELECT DISTINCT o.oprname FROM pg_catalog.pg_operator o
			JOIN pg_catalog.pg_proc p ON p.oid = o.oprcode
			WHERE o.oprnamespace <> 'pg_catalog'::pg_catalog.regnamespace AND p.provolatile = 'v'`, cat.volatileOps},
	} {
		rows, err := tx.Query(ctx, q.sql)
		if err != nil {
			return nil, err
		}
		_, err = pgx.ForEachRow(rows, []any{&name}, func() error {
			q.set[name] = true
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return cat, nil
}
