package mysql

// The allow-list guard for MySQL and MariaDB. A statement is parsed with
// the TiDB parser (github.com/pingcap/tidb/pkg/parser: MySQL's grammar,
// maintained, pure Go) in the sql_mode this package pins on every
// connection (pinnedSQLMode), so that the guard and the server read the
// same text alike: with ANSI_QUOTES gone, "LOAD_FILE"('/etc/passwd') is a
// string followed by "(" to both, a syntax error.
//
// The tree is then walked fail-closed: a node type that is not known to be
// safe is refused; every function must be a side-effect-free built-in of
// the server's flavour (guard_allow.go); every table a table or view of
// the inventory (Tables) or a CTE in scope; no INTO, no locking read, no
// variable but a read of a system variable. A few things the tree does
// not show are read from the tokens: executable comments (/*! … */,
// /*M! … */, which the server runs and MariaDB's form of which the parser
// drops), and how a function's name is spelled (quoted, or apart from its
// "(": both make the server call a stored function of that name).

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	tidbmysql "github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/terror"
	"github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/discover-db/discover/warehouse"
)

// pinnedSQLMode is the sql_mode of every session this package opens,
// whatever the server's global default or the DSN: none of the modes that
// change how text is lexed or parsed (ANSI_QUOTES, ANSI, PIPES_AS_CONCAT,
// NO_BACKSLASH_ESCAPES, IGNORE_SPACE, HIGH_NOT_PRECEDENCE, ORACLE…). It is
// valid on MySQL 5.7 and 8 and on MariaDB.
const pinnedSQLMode = "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

// maxChain bounds how deeply operators may nest without brackets (NOT NOT
// …, - - …, a+b+…, long JOIN chains), as estimated from the tokens before
// the parser builds a tree: the parser and its post-pass recurse once per
// level, and a few megabytes of "-" would otherwise take seconds and
// gigabytes. Brackets are bounded by warehouse.MaxNesting.
const maxChain = 4000

// maxTreeDepth bounds the walk itself, for what the estimate misses.
const maxTreeDepth = 10000

var parserMode = func() tidbmysql.SQLMode {
	m, err := tidbmysql.GetSQLMode(pinnedSQLMode)
	if err != nil {
		panic(err)
	}
	return m
}()

// parsers hold parsers configured with the pinned mode; a Parser is not
// safe for concurrent use.
var parsers = sync.Pool{New: func() any {
	p := parser.New()
	p.SetSQLMode(parserMode)
	return p
}}

// Guard implements warehouse.Guarder: nil when q is one statement this
// package's allow-list admits, else an error wrapping warehouse.ErrRejected
// that says what is not allowed. The inventory it checks tables against is
// the one Tables last listed; Guard lists it once if none is cached.
func (s *Source) Guard(ctx context.Context, q string) error {
	st, err := parseStatement(q)
	if err != nil {
		return err
	}
	cfg, err := s.guardConfig(ctx)
	if err != nil {
		return fmt.Errorf("guard: list the tables a statement may read: %w", err)
	}
	return cfg.verdict(st)
}

// guardConfig is everything besides the statement that a verdict depends on.
type guardConfig struct {
	mariadb bool
	db      string // the connection's database, which unqualified names resolve in
	// fold is true when the server compares table and database names
	// case-insensitively (lower_case_table_names 1 or 2).
	fold bool
	inv  *warehouse.Inventory
	// storedFuncs are the stored functions of the database, lower case: a
	// call of such a name is refused whatever the parser made of it.
	storedFuncs map[string]bool
}

// guardView is what Tables leaves for Guard.
type guardView struct {
	inv         *warehouse.Inventory
	storedFuncs map[string]bool
}

// guardConfig returns the configuration of s's guard, listing the tables
// once when Tables has not run yet.
func (s *Source) guardConfig(ctx context.Context) (*guardConfig, error) {
	s.guardMu.Lock()
	v := s.guard
	s.guardMu.Unlock()
	if v == nil {
		if _, err := s.Tables(ctx); err != nil {
			return nil, err
		}
		s.guardMu.Lock()
		v = s.guard
		s.guardMu.Unlock()
		if v == nil {
			return nil, errors.New("no inventory")
		}
	}
	return &guardConfig{mariadb: s.mariadb, db: s.name, fold: s.lowerCaseTableNames != 0,
		inv: v.inv, storedFuncs: v.storedFuncs}, nil
}

// setGuardView records what Tables listed: the tables and views, the
// databases' other tables their foreign keys point to (discover's experts
// join them), and the stored functions.
func (s *Source) setGuardView(tables []warehouse.Table, storedFuncs []string) {
	rels := append([]warehouse.Table(nil), tables...)
	for _, t := range tables {
		for _, fk := range t.ForeignKeys {
			if fk.RefTable.Schema != "" && !systemSchemas[strings.ToLower(fk.RefTable.Schema)] {
				rels = append(rels, warehouse.Table{Name: fk.RefTable})
			}
		}
	}
	var fold func(string) string
	if s.lowerCaseTableNames != 0 {
		fold = strings.ToLower
	}
	v := &guardView{inv: warehouse.NewInventory(rels, fold), storedFuncs: map[string]bool{}}
	for _, f := range storedFuncs {
		v.storedFuncs[strings.ToLower(f)] = true
	}
	s.guardMu.Lock()
	s.guard = v
	s.guardMu.Unlock()
}

// parsed is a statement that passed the checks that need no inventory.
type parsed struct {
	stmt  ast.StmtNode
	spell *spelling
}

// parseStatement refuses what no parse should see (warehouse.Precheck,
// invalid UTF-8, control characters, executable comments, chains too
// deep) and parses the rest into exactly one statement.
func parseStatement(q string) (*parsed, error) {
	if err := warehouse.Precheck(q); err != nil {
		return nil, err
	}
	if err := plainText(q); err != nil {
		return nil, err
	}
	lx, err := scan(q)
	if err != nil {
		return nil, err
	}
	if lx.chain > maxChain {
		return nil, warehouse.Rejectf("operators nested about %d deep without brackets (at most %d)", lx.chain, maxChain)
	}
	stmts, warns, err := parse(q)
	if err != nil {
		return nil, warehouse.Rejectf("not a statement MySQL and MariaDB read alike: %s", oneLine(err.Error()))
	}
	for _, w := range warns {
		if !knownHint(w) {
			// A hint the parser could not read, or one where the parser
			// takes no hint: the server might read it otherwise, so the
			// guard cannot vouch for it.
			return nil, warehouse.Rejectf("%s", oneLine(w.Error()))
		}
	}
	switch len(stmts) {
	case 0:
		return nil, warehouse.Rejectf("empty statement")
	case 1:
	default:
		return nil, warehouse.Rejectf("only one statement is allowed")
	}
	return &parsed{stmt: stmts[0], spell: lx.spell}, nil
}

// knownHint reports whether a parser warning is only that a MySQL hint the
// parser read in full has no effect on TiDB, for a hint of allowedHints.
func knownHint(w error) bool {
	var te *terror.Error
	if !parser.ErrWarnOptimizerHintUnsupportedHint.Equal(w) || !errors.As(w, &te) || len(te.Args()) != 1 {
		return false
	}
	name, ok := te.Args()[0].(string)
	return ok && allowedHints[strings.ToLower(name)]
}

// parse runs the TiDB parser, turning a panic (a parser bug on hostile
// input) into an error rather than a crash.
func parse(q string) (stmts []ast.StmtNode, warns []error, err error) {
	p := parsers.Get().(*parser.Parser)
	defer func() {
		if r := recover(); r != nil {
			// The parser's state is unknown: it is not put back.
			stmts, warns, err = nil, nil, fmt.Errorf("the parser failed: %v", r)
			return
		}
		parsers.Put(p)
	}()
	stmts, warns, err = p.Parse(q, "", "")
	// The slice is the parser's own, which its next use overwrites: once
	// the parser is back in the pool, another statement's parse would
	// change what is being judged here.
	return slices.Clone(stmts), slices.Clone(warns), err
}

// plainText refuses invalid UTF-8 (the connection's character set is
// utf8mb4; a byte sequence the server would read as another character
// must not decide where a string ends) and control characters other than
// whitespace (MySQL ends a "--" comment at a control character, the
// parser does not).
func plainText(q string) error {
	if !utf8.ValidString(q) {
		return warehouse.Rejectf("the statement is not valid UTF-8")
	}
	for i := 0; i < len(q); i++ {
		if c := q[i]; refusedControl(c) {
			return warehouse.Rejectf("control character 0x%02x at offset %d", c, i)
		}
	}
	return nil
}

// refusedControl: a control character plainText refuses, any but
// whitespace.
func refusedControl(c byte) bool { return c < 0x20 && !isSpace(c) || c == 0x7f }

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// verdict walks the statement.
func (c *guardConfig) verdict(p *parsed) error {
	if err := topLevel(p.stmt); err != nil {
		return err
	}
	w := &walker{c: c, spell: p.spell}
	p.stmt.Accept(w)
	return w.err
}

// topLevel refuses every statement kind but SELECT (set operations, TABLE,
// VALUES and WITH included), EXPLAIN and DESCRIBE, and SHOW.
func topLevel(stmt ast.StmtNode) error {
	switch stmt.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt, *ast.ExplainStmt, *ast.ShowStmt:
		return nil
	}
	return warehouse.Rejectf("%s is not allowed: only one SELECT, EXPLAIN or DESCRIBE of one, or SHOW of a setting or of a table's structure", statementName(stmt))
}

// statementName is the leading keywords of a statement (DO, LOAD DATA,
// SET), as a reader would name it.
func statementName(stmt ast.Node) string {
	var words []string
	for _, w := range strings.Fields(stmt.Text()) {
		if len(words) == 2 || strings.IndexFunc(w, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_') }) >= 0 {
			break
		}
		words = append(words, w)
	}
	if len(words) == 0 {
		// A statement inside another has no text of its own.
		return strings.ToUpper(strings.TrimSuffix(strings.TrimPrefix(reflect.TypeOf(stmt).String(), "*ast."), "Stmt"))
	}
	return strings.ToUpper(strings.Join(words, " "))
}

// walker is the fail-closed visitor. The first refusal stops the walk.
type walker struct {
	c     *guardConfig
	spell *spelling
	err   error
	depth int
	// scopes are the CTE names visible at this point, innermost last;
	// each belongs to the statement whose WITH declared it.
	scopes []cteScope
}

type cteScope struct {
	owner ast.Node
	names map[string]bool
}

func (w *walker) Enter(n ast.Node) (ast.Node, bool) {
	if w.err != nil {
		return n, true
	}
	if w.depth++; w.depth > maxTreeDepth {
		w.err = warehouse.Rejectf("the statement nests deeper than %d", maxTreeDepth)
		return n, true
	}
	w.err = w.enter(n)
	return n, w.err != nil
}

func (w *walker) Leave(n ast.Node) (ast.Node, bool) {
	w.depth--
	if w.err != nil {
		return n, false
	}
	switch n := n.(type) {
	case *ast.CommonTableExpression:
		// Visible from here on: to the later CTEs of the same WITH and to
		// the statement it belongs to.
		w.declare(n.Name.O)
	case *ast.SelectStmt, *ast.SetOprStmt, *ast.SetOprSelectList:
		if k := len(w.scopes); k > 0 && w.scopes[k-1].owner == n {
			w.scopes = w.scopes[:k-1]
		}
	}
	return n, true
}

// enter checks one node; its children are checked as the walk reaches them.
func (w *walker) enter(n ast.Node) error {
	switch n := n.(type) {
	case *ast.SelectStmt:
		return w.selectStmt(n)
	case *ast.SetOprStmt:
		w.openScope(n, n.With)
	case *ast.SetOprSelectList:
		w.openScope(n, n.With)
	case *ast.CommonTableExpression:
		if n.IsRecursive {
			// WITH RECURSIVE: the CTE reads itself.
			w.declare(n.Name.O)
		}
	case *ast.ExplainStmt:
		return explainStmt(n)
	case *ast.ShowStmt:
		return w.showStmt(n)
	case *ast.TableName:
		return w.relation(n)
	case *ast.FuncCallExpr:
		return w.funcCall(n)
	case *ast.AggregateFuncExpr:
		return w.function(n.F, aggregateFuncs)
	case *ast.WindowFuncExpr:
		// An aggregate with OVER (…) is a window function too.
		return w.function(n.Name, windowFuncs, aggregateFuncs)
	case *ast.VariableExpr:
		return variable(n)
	case *ast.TableOptimizerHint:
		if !allowedHints[n.HintName.L] {
			return warehouse.Rejectf("optimizer hint %s is not allowed (only MAX_EXECUTION_TIME and join, index and subquery strategy hints)", strings.ToUpper(n.HintName.O))
		}
	case *ast.WithClause, *ast.FieldList, *ast.SelectField, *ast.TableRefsClause, *ast.Join,
		*ast.TableSource, *ast.OnCondition, *ast.ByItem, *ast.GroupByClause, *ast.HavingClause,
		*ast.OrderByClause, *ast.Limit, *ast.WindowSpec, *ast.PartitionByClause, *ast.FrameClause,
		*ast.FrameBound, *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.CompareSubqueryExpr,
		*ast.BinaryOperationExpr, *ast.UnaryOperationExpr, *ast.BetweenExpr, *ast.CaseExpr,
		*ast.WhenClause, *ast.ColumnNameExpr, *ast.ColumnName, *ast.PatternInExpr,
		*ast.IsNullExpr, *ast.IsTruthExpr, *ast.PatternLikeOrIlikeExpr, *ast.PatternRegexpExpr,
		*ast.ParenthesesExpr, *ast.PositionExpr, *ast.RowExpr, *ast.MatchAgainst,
		*ast.SetCollationExpr, *ast.FuncCastExpr, *ast.TrimDirectionExpr, *ast.TimeUnitExpr,
		*ast.GetFormatSelectorExpr, *test_driver.ValueExpr:
		// Structure, operators and literals: nothing of their own to check.
	default:
		return warehouse.Rejectf("%s is not allowed in a read-only statement", nodeName(n))
	}
	return nil
}

// nodeName names a refused node for the refusal message.
func nodeName(n ast.Node) string {
	switch n.(type) {
	case *test_driver.ParamMarkerExpr:
		return "a ? parameter"
	case *ast.DefaultExpr:
		return "DEFAULT(…)"
	case *ast.ValuesExpr:
		return "VALUES(…)"
	case *ast.TableNameExpr:
		return "a sequence reference"
	case *ast.AsOfClause:
		return "AS OF"
	case *ast.TableSample:
		return "TABLESAMPLE"
	case ast.StmtNode:
		return statementName(n)
	}
	return strings.TrimPrefix(reflect.TypeOf(n).String(), "*ast.")
}

func (w *walker) selectStmt(n *ast.SelectStmt) error {
	if n.SelectIntoOpt != nil {
		return warehouse.Rejectf("SELECT … INTO is not allowed (it writes a file or variables)")
	}
	if n.LockInfo != nil && n.LockInfo.LockType != ast.SelectLockNone {
		return warehouse.Rejectf("a locking read (%s) is not allowed", strings.ToUpper(n.LockInfo.LockType.String()))
	}
	w.openScope(n, n.With)
	return nil
}

// openScope starts the CTE scope of a statement with a WITH clause; its
// names are declared as the walk leaves each CTE.
func (w *walker) openScope(owner ast.Node, with *ast.WithClause) {
	if with != nil {
		w.scopes = append(w.scopes, cteScope{owner: owner, names: map[string]bool{}})
	}
}

func (w *walker) declare(name string) {
	if k := len(w.scopes); k > 0 {
		w.scopes[k-1].names[w.c.foldName(name)] = true
	}
}

// isCTE reports whether an unqualified name is a CTE in scope. CTE names
// are compared as the server compares table names.
func (w *walker) isCTE(name string) bool {
	name = w.c.foldName(name)
	for _, s := range w.scopes {
		if s.names[name] {
			return true
		}
	}
	return false
}

func (c *guardConfig) foldName(name string) string {
	if c.fold {
		return strings.ToLower(name)
	}
	return name
}

// sameDB reports whether a qualifier names the connection's database.
func (c *guardConfig) sameDB(schema string) bool {
	return c.foldName(schema) == c.foldName(c.db)
}

// relation admits a CTE in scope or a table or view of the inventory. A
// qualifier naming the connection's database reads like none.
func (w *walker) relation(t *ast.TableName) error {
	schema, name := t.Schema.O, t.Name.O
	if schema == "" && w.isCTE(name) {
		return nil
	}
	shown := name
	if schema != "" {
		shown = schema + "." + name
	}
	resolved := schema
	if schema == "" {
		resolved = w.c.db
	}
	if systemSchemas[strings.ToLower(resolved)] {
		return warehouse.Rejectf("%s is in the system schema %s, which may not be read", shown, strings.ToLower(resolved))
	}
	if schema != "" && w.c.sameDB(schema) {
		schema = ""
	}
	if !w.c.inv.Has(schema, name) {
		return warehouse.NotAllowed(shown)
	}
	return nil
}

// funcCall checks a scalar function call.
func (w *walker) funcCall(n *ast.FuncCallExpr) error {
	if n.Schema.O != "" {
		return warehouse.Rejectf("%s.%s(…) calls a stored function (only built-in functions are allowed)", n.Schema.O, n.FnName.O)
	}
	name := n.FnName.L
	if argless[name] && len(n.Args) > 0 {
		return warehouse.Rejectf("%s with an argument sets session state (only %s() reads)", strings.ToUpper(name), strings.ToUpper(name))
	}
	if parserNames[name] && (w.spell.bare[name] || w.spell.gap[name]) {
		// Written by the statement itself, not made by the parser from
		// INSERT(…), CHAR(…) or a literal: a stored function to the server.
		return warehouse.FunctionNotAllowed(n.FnName.O)
	}
	if !flavourFuncs(w.c.mariadb)[name] {
		if aggregateFuncs[name] || windowFuncs[name] {
			// COUNT (…) or `count`(…): the parser's generic call.
			if err := w.spelledAsCall(name, n.FnName.O); err != nil {
				return err
			}
		}
		return warehouse.FunctionNotAllowed(n.FnName.O)
	}
	return w.spelledAsCall(name, n.FnName.O)
}

// function checks an aggregate or window function against lists.
func (w *walker) function(fn string, lists ...map[string]bool) error {
	name := strings.ToLower(fn)
	for _, list := range lists {
		if list[name] {
			return w.spelledAsCall(name, fn)
		}
	}
	return warehouse.FunctionNotAllowed(fn)
}

// spelledAsCall refuses a function whose name the server would resolve
// otherwise than the parser did: quoted (`count`(…) is a stored function
// to the server), apart from its "(" (COUNT (…) likewise), or the name of
// one of the database's stored functions.
func (w *walker) spelledAsCall(name, shown string) error {
	switch {
	case w.spell.quoted[name]:
		return warehouse.Rejectf("function %s is written as a quoted name, which the server reads as a stored function; write it without quotes", shown)
	case w.spell.gap[name] && !noGapNeeded[name]:
		return warehouse.Rejectf("function %s is written apart from its \"(\", which the server reads as a stored function; write %s(…)", shown, shown)
	case w.c.storedFuncs[name]:
		return warehouse.Rejectf("%s is also the name of a stored function of this database, which the server may call instead of the built-in", shown)
	}
	return nil
}

// variable admits a read of a system variable (@@name, like SHOW
// VARIABLES) and nothing else: no user variable, no assignment.
func variable(n *ast.VariableExpr) error {
	switch {
	case n.Value != nil:
		return warehouse.Rejectf("assignment to @%s is not allowed", n.Name)
	case !n.IsSystem:
		return warehouse.Rejectf("user variable @%s is not allowed (a session's state)", n.Name)
	}
	return nil
}

// explainStmt admits EXPLAIN of a SELECT (EXPLAIN ANALYZE runs it, so the
// inner statement is checked as any other) and DESCRIBE of a table.
func explainStmt(n *ast.ExplainStmt) error {
	if n.Explore || n.SQLDigest != "" || n.PlanDigest != "" {
		return warehouse.Rejectf("EXPLAIN of a digest is not allowed")
	}
	switch inner := n.Stmt.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return nil
	case *ast.ShowStmt:
		if inner.Tp == ast.ShowColumns {
			return nil
		}
	}
	return warehouse.Rejectf("EXPLAIN of %s is not allowed (only of a SELECT)", nodeName(n.Stmt))
}

// showStmt admits the SHOW statements of allowedShows, on the connection's
// database only; the table a SHOW names is checked as a relation.
func (w *walker) showStmt(n *ast.ShowStmt) error {
	if _, ok := allowedShows[n.Tp]; !ok {
		return warehouse.Rejectf("%s is not allowed (SHOW is allowed for VARIABLES, STATUS, TABLES, COLUMNS, INDEX, CREATE TABLE and CREATE VIEW)", showName(n))
	}
	if n.DBName != "" && !w.c.sameDB(n.DBName) {
		return warehouse.Rejectf("SHOW of another database (%s) is not allowed", n.DBName)
	}
	return nil
}

// showName is the SHOW statement's kind as the parser restores it.
func showName(n *ast.ShowStmt) string {
	var b strings.Builder
	if err := n.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &b)); err != nil || b.Len() == 0 {
		return "this SHOW"
	}
	words := strings.Fields(b.String())
	if len(words) > 3 {
		words = words[:3]
	}
	return strings.Join(words, " ")
}
