package sqlite

// The SQLite guard: an allow-list enforced by SQLite itself. SQLite calls
// an authorizer for every function, every column of every table and every
// pragma a statement uses while it compiles the statement, after resolving
// each name exactly as it will when the statement runs (case folding,
// quoting in any of its four styles, views expanded, CTEs in scope). The
// guard compiles the caller's statement on a connection of its own whose
// authorizer admits only the listed actions, and never runs it. A
// statement passes when it is one statement (SQLite's own parser found
// nothing but comments and semicolons after it), compiled with every
// action admitted, and SQLite reports it read-only.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.Guarder = (*Source)(nil)

// Guard reports whether q is one statement the allow-list admits, without
// running it: nil, or an error wrapping warehouse.ErrRejected that names
// what is not allowed. A statement whose only fault is a column its table
// lacks (or an ambiguous one) is not the guard's to refuse: it cannot run,
// and the grounding stage or the database names the column. Any other
// error (the file locked past busy_timeout, say) is not a verdict.
func (s *Source) Guard(ctx context.Context, q string) error {
	v, err := s.check(ctx, q)
	if err != nil {
		return fmt.Errorf("sqlite: guard: %w", err)
	}
	return v.refusal
}

// Admit is the guard in front of Query and Stream (warehouse.Engine),
// bounded by ctx and retried like a statement while the file is locked: a
// refusal wraps ErrRejected; a statement that does not compile is not run
// and the error is the database's; any other failure is reported as the
// statement's own would be.
func (s *Source) Admit(ctx context.Context, q string) error {
	var v verdict
	err := s.retryBusy(ctx, func() (err error) {
		v, err = s.check(ctx, q)
		return err
	})
	switch {
	case err != nil:
		return runErr(err)
	case v.refusal != nil:
		return v.refusal
	case v.invalid != nil:
		return v.invalid
	}
	return nil
}

// verdict is the guard's finding on one statement.
type verdict struct {
	refusal error // wraps ErrRejected: the statement is not allowed
	invalid error // the statement names a column that does not resolve
}

// check compiles q on the guard connection under the allow-list.
func (s *Source) check(ctx context.Context, q string) (verdict, error) {
	if err := warehouse.Precheck(q); err != nil {
		return verdict{refusal: err}, nil
	}
	if n := compoundTerms(q); n > maxCompoundSelect {
		// SQLite parses every term before it counts them: 100,000 take
		// seconds, and could never compile.
		return verdict{refusal: warehouse.Rejectf("%d UNION, EXCEPT or INTERSECT terms; SQLite compiles at most %d", n, maxCompoundSelect)}, nil
	}
	if err := ctx.Err(); err != nil {
		return verdict{}, err
	}
	s.guardMu.Lock()
	defer s.guardMu.Unlock()
	g, rel, err := s.guardState(ctx)
	if err != nil {
		return verdict{}, err
	}
	c := &statementCheck{rel: rel}
	p, err := g.prepare(q, c.decide)
	if err != nil {
		return verdict{}, err
	}
	defer g.finalize(p.stmt)
	switch {
	case c.refusal != nil:
		return verdict{refusal: c.refusal}, nil
	case p.rc != sqlite3.SQLITE_OK:
		return compileError(p)
	case p.stmt == 0:
		return verdict{refusal: warehouse.Rejectf("no statement, only comments or semicolons")}, nil
	}
	if refusal, err := oneStatement(g, q, p.tail); refusal != nil || err != nil {
		return verdict{refusal: refusal}, err
	}
	switch {
	case !p.readonly:
		return verdict{refusal: warehouse.Rejectf("the statement would write to the database")}, nil
	case !c.sawSelect && !c.sawPragma:
		return verdict{refusal: warehouse.Rejectf("only a SELECT, an EXPLAIN of one, or a PRAGMA that reads is allowed")}, nil
	}
	return verdict{}, nil
}

// oneStatement refuses any statement after the first. What SQLite's parser
// left after the first statement is handed to it again, with an authorizer
// that refuses every action: nothing but whitespace, comments and
// semicolons compiles to no statement at all. The same parser splits the
// text when Query runs it (modernc.org/sqlite runs every statement of a
// text in turn), so the guard and the run cannot disagree on where the
// first statement ends, as a lexer of the guard's own could.
func oneStatement(g *guardConn, q string, at int) (refusal, err error) {
	for at < len(q) {
		p, err := g.prepare(q[at:], func(authArgs) bool { return false })
		if err != nil {
			return nil, err
		}
		g.finalize(p.stmt)
		if p.rc != sqlite3.SQLITE_OK || p.stmt != 0 || p.tail <= 0 {
			return warehouse.Rejectf("more than one statement: %s follows the first (one statement only)", excerpt(q[at:])), nil
		}
		at += p.tail
	}
	return nil, nil
}

// compileError sorts out a statement SQLite would not compile (with no
// action refused by the authorizer). A function or table SQLite does not
// know is not on the list; a column that does not resolve is left to the
// grounding stage; the file being locked or unreadable is not a verdict;
// anything else that does not compile cannot be checked, so it is refused.
func compileError(p prepared) (verdict, error) {
	err := &sqliteError{rc: p.rc, msg: p.msg}
	switch p.rc & 0xff {
	case sqlite3.SQLITE_ERROR, sqlite3.SQLITE_TOOBIG, sqlite3.SQLITE_RANGE:
	default:
		return verdict{}, err // busy, locked, I/O, corrupt, out of memory
	}
	msg := p.msg
	switch {
	case strings.HasPrefix(msg, "no such column: "), strings.HasPrefix(msg, "ambiguous column name: "):
		return verdict{invalid: err}, nil
	case strings.HasPrefix(msg, "no such function: "):
		return verdict{refusal: warehouse.FunctionNotAllowed(strings.TrimPrefix(msg, "no such function: "))}, nil
	case strings.HasPrefix(msg, "no such table: "):
		return verdict{refusal: warehouse.NotAllowed(strings.TrimPrefix(msg, "no such table: "))}, nil
	}
	return verdict{refusal: warehouse.Rejectf("the statement does not compile, so it cannot be checked: %s", msg)}, nil
}

// excerpt shortens text for a message.
func excerpt(text string) string {
	text = strings.TrimSpace(text)
	if r := []rune(text); len(r) > 60 {
		text = string(r[:60]) + "…"
	}
	return fmt.Sprintf("%q", text)
}

// statementCheck is the authorizer of one statement: it admits the listed
// actions and keeps the reason for the first it refused.
type statementCheck struct {
	rel       *relations
	sawSelect bool
	sawPragma bool
	refusal   error
}

func (c *statementCheck) refuse(err error) bool {
	if c.refusal == nil {
		c.refusal = err
	}
	return false
}

func (c *statementCheck) decide(a authArgs) bool {
	switch a.action {
	case sqlite3.SQLITE_SELECT:
		c.sawSelect = true
		return true
	case sqlite3.SQLITE_RECURSIVE:
		// A recursive CTE may run for long; the query's timeout bounds it.
		return true
	case sqlite3.SQLITE_FUNCTION:
		return c.function(a)
	case sqlite3.SQLITE_READ:
		return c.read(a)
	case sqlite3.SQLITE_PRAGMA:
		return c.pragma(a)
	}
	return c.refuse(warehouse.Rejectf("%s is not allowed: only one SELECT, an EXPLAIN of one, or a PRAGMA that reads", actionName(a)))
}

// function admits a listed function, and in a view of the database any
// function that view itself calls (SQLite's trusted_schema=0 already holds
// those to harmless ones).
func (c *statementCheck) function(a authArgs) bool {
	name := foldASCII(a.arg2)
	if allowedFunctions[name] || a.inner != "" && c.rel.viewFuncs[foldASCII(a.inner)][name] {
		return true
	}
	return c.refuse(warehouse.FunctionNotAllowed(a.arg2))
}

// read admits reading a column of an inventory table or view, of a listed
// table-valued function, of a shadow table of the database's virtual
// tables (FTS5 reads its own while a statement on it compiles), or what an
// inventory view reads itself. A read with no column is SQLite saying that
// a FROM item whose columns go unused is there (count(*) FROM x): x may
// also be a CTE, which is no relation of the database, or a table of a
// view, which SQLite then names without the view. Either way no value of
// x is read.
func (c *statementCheck) read(a authArgs) bool {
	if a.db != "" && !strings.EqualFold(a.db, "main") {
		return c.refuse(warehouse.Rejectf("%s.%s is not in the main database (only the main database may be read)", QuoteIdent(a.db), QuoteIdent(a.arg1)))
	}
	t := foldASCII(a.arg1)
	switch {
	case c.rel.inv.Has("", a.arg1), tableFunctions[t], c.rel.names.shadow[t]:
		return true
	case a.inner != "" && c.rel.viewReads[foldASCII(a.inner)][canonical(t)]:
		return true
	case a.arg2 == "" && a.db == "" && !c.rel.names.isReal(t):
		return true // a CTE
	case a.arg2 == "" && strings.EqualFold(a.db, "main") && c.rel.viewReads[""][canonical(t)]:
		// A view flattened into the statement: SQLite names its tables
		// whose columns go unused with no view to tell, bound to the
		// view's schema. (A statement that spells main.x for a table x
		// that a view reads learns how many rows x has, and no more.)
		return true
	}
	return c.refuse(warehouse.NotAllowed(QuoteIdent(a.arg1)))
}

// pragma admits the PRAGMAs that only read.
func (c *statementCheck) pragma(a authArgs) bool {
	name := foldASCII(a.arg1)
	switch {
	case a.db != "" && !strings.EqualFold(a.db, "main"):
		return c.refuse(warehouse.Rejectf("PRAGMA %s.%s: only the main database may be read", a.db, a.arg1))
	case objectPragmas[name], barePragmas[name] && a.null2:
		c.sawPragma = true
		return true
	case barePragmas[name]:
		return c.refuse(warehouse.Rejectf("PRAGMA %s with a value sets it (only its bare form, which reads, is allowed)", name))
	}
	return c.refuse(warehouse.Rejectf("PRAGMA %s is not on the list of PRAGMAs that only read", a.arg1))
}

// actionName names an authorizer action for a refusal.
func actionName(a authArgs) string {
	if n, ok := actionNames[a.action]; ok {
		return n
	}
	return fmt.Sprintf("SQLite action %d", a.action)
}

var actionNames = map[int32]string{
	sqlite3.SQLITE_CREATE_INDEX: "CREATE INDEX", sqlite3.SQLITE_CREATE_TABLE: "CREATE TABLE",
	sqlite3.SQLITE_CREATE_TEMP_INDEX: "CREATE TEMP INDEX", sqlite3.SQLITE_CREATE_TEMP_TABLE: "CREATE TEMP TABLE",
	sqlite3.SQLITE_CREATE_TEMP_TRIGGER: "CREATE TEMP TRIGGER", sqlite3.SQLITE_CREATE_TEMP_VIEW: "CREATE TEMP VIEW",
	sqlite3.SQLITE_CREATE_TRIGGER: "CREATE TRIGGER", sqlite3.SQLITE_CREATE_VIEW: "CREATE VIEW",
	sqlite3.SQLITE_DELETE: "DELETE", sqlite3.SQLITE_DROP_INDEX: "DROP INDEX", sqlite3.SQLITE_DROP_TABLE: "DROP TABLE",
	sqlite3.SQLITE_DROP_TEMP_INDEX: "DROP TEMP INDEX", sqlite3.SQLITE_DROP_TEMP_TABLE: "DROP TEMP TABLE",
	sqlite3.SQLITE_DROP_TEMP_TRIGGER: "DROP TEMP TRIGGER", sqlite3.SQLITE_DROP_TEMP_VIEW: "DROP TEMP VIEW",
	sqlite3.SQLITE_DROP_TRIGGER: "DROP TRIGGER", sqlite3.SQLITE_DROP_VIEW: "DROP VIEW",
	sqlite3.SQLITE_INSERT: "INSERT", sqlite3.SQLITE_TRANSACTION: "a transaction (BEGIN, COMMIT, ROLLBACK)",
	sqlite3.SQLITE_UPDATE: "UPDATE", sqlite3.SQLITE_ATTACH: "ATTACH", sqlite3.SQLITE_DETACH: "DETACH",
	sqlite3.SQLITE_ALTER_TABLE: "ALTER TABLE", sqlite3.SQLITE_REINDEX: "REINDEX", sqlite3.SQLITE_ANALYZE: "ANALYZE",
	sqlite3.SQLITE_CREATE_VTABLE: "CREATE VIRTUAL TABLE", sqlite3.SQLITE_DROP_VTABLE: "DROP VIRTUAL TABLE",
	sqlite3.SQLITE_SAVEPOINT: "SAVEPOINT",
}

// guardState returns the guard connection, opened on the file as the
// current pool sees it (immutable or not; a pool replaced because the file
// changed replaces the guard connection too), and the relations of the
// latest table listing (listing the tables first if nobody has).
func (s *Source) guardState(ctx context.Context) (*guardConn, *relations, error) {
	if s.guardClosed {
		return nil, nil, errors.New("the source is closed")
	}
	// Listing first: it may find the file changed and replace the pool.
	tables, names, gen, err := s.listing(ctx)
	if err != nil {
		return nil, nil, err
	}
	db, snap, err := s.current()
	if err != nil {
		return nil, nil, err
	}
	if s.gconn == nil || s.gconnFor != db {
		g, err := openGuardConn(uri(s.abs, snap != nil))
		if err != nil {
			return nil, nil, fmt.Errorf("open the guard's connection: %w", err)
		}
		s.gconn.close()
		s.gconn, s.gconnFor, s.grel = g, db, nil
	}
	if s.grel == nil || s.grel.gen != gen {
		rel, err := newRelations(s.gconn, tables, names, gen)
		if err != nil {
			return nil, nil, err
		}
		s.grel = rel
	}
	return s.gconn, s.grel, nil
}

// listing returns the latest table listing, listing the tables if none was.
func (s *Source) listing(ctx context.Context) ([]warehouse.Table, *schemaNames, int, error) {
	s.mu.Lock()
	tables, names, gen := s.listed, s.names, s.listGen
	s.mu.Unlock()
	if names != nil {
		return tables, names, gen, nil
	}
	if _, err := s.Tables(ctx); err != nil {
		return nil, nil, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listed, s.names, s.listGen, nil
}

// schemaNames are the names of the schema that Tables does not list, as
// of the same listing.
type schemaNames struct {
	shadow map[string]bool // tables behind virtual tables, ASCII-folded
	// real holds every name an unqualified table name could resolve to
	// besides a CTE: the main schema's objects, SQLite's own tables, and
	// the modules that are eponymous virtual tables (pragma_* ones are
	// registered on first use, so the prefix counts too).
	real map[string]bool
	// stored is how each object of the main schema is stored, as the
	// listing found it: its kind (table, view, virtual, shadow) and
	// whether it is a WITHOUT ROWID table. EstimateRows reads it to size
	// a table by its b-tree's key without asking pragma_table_list, which
	// walks every table of the schema on each call.
	stored map[string]schemaObject
}

func (n *schemaNames) isReal(folded string) bool {
	return n.real[folded] || strings.HasPrefix(folded, "sqlite_") || strings.HasPrefix(folded, "pragma_")
}

// schemaNames sorts the main schema's objects for the guard.
func (in *introspector) schemaNames(objs []schemaObject) (*schemaNames, error) {
	n := &schemaNames{shadow: map[string]bool{}, real: map[string]bool{}, stored: map[string]schemaObject{}}
	shown := map[string]bool{}
	for _, o := range listed(objs) {
		shown[o.name] = true
	}
	for _, o := range objs {
		f := foldASCII(o.name)
		n.real[f] = true
		n.stored[f] = schemaObject{name: o.name, kind: o.kind, withoutRow: o.withoutRow}
		if !shown[o.name] && !strings.HasPrefix(f, "sqlite_") {
			n.shadow[f] = true
		}
	}
	rows, err := in.conn.QueryContext(in.ctx, "SELECT name FROM pragma_module_list")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		n.real[foldASCII(name)] = true
	}
	return n, rows.Err()
}

// relations is what a statement may read beyond the listed table-valued
// functions, as of one listing of the database's tables.
type relations struct {
	gen       int                  // the listing it was built from (Source.listGen)
	inv       *warehouse.Inventory // tables and views Tables listed
	names     *schemaNames
	viewReads map[string]map[string]bool // view → relations it reads itself, folded; "" → those of all views
	viewFuncs map[string]map[string]bool // view → functions it calls itself
}

func newRelations(g *guardConn, tables []warehouse.Table, names *schemaNames, gen int) (*relations, error) {
	rel := &relations{
		gen:       gen,
		inv:       warehouse.NewInventory(tables, foldASCII),
		names:     names,
		viewReads: map[string]map[string]bool{},
		viewFuncs: map[string]map[string]bool{},
	}
	for _, t := range tables {
		if t.Kind == "view" {
			if err := rel.learnView(g, t.Name.Name); err != nil {
				return nil, err
			}
		}
	}
	return rel, nil
}

// learnView records what a view of the database reads and calls itself,
// as SQLite reports it (by the view's name) when a statement reads it: all
// of its columns, and none (SQLite then names the tables whose columns go
// unused as the view spells them). A CTE may carry a view's name in that
// report; it can then use no more than the view does.
func (rel *relations) learnView(g *guardConn, view string) error {
	learn := func(a authArgs) bool {
		if a.inner == "" {
			return true
		}
		in := foldASCII(a.inner)
		switch a.action {
		case sqlite3.SQLITE_READ:
			if a.db == "" || strings.EqualFold(a.db, "main") {
				addTo(rel.viewReads, in, canonical(foldASCII(a.arg1)))
				addTo(rel.viewReads, "", canonical(foldASCII(a.arg1)))
			}
		case sqlite3.SQLITE_FUNCTION:
			addTo(rel.viewFuncs, in, foldASCII(a.arg2))
		}
		return true
	}
	for _, q := range []string{"SELECT * FROM ", "SELECT count(*) FROM "} {
		p, err := g.prepare(q+QuoteIdent(view), learn)
		if err != nil {
			return err
		}
		g.finalize(p.stmt)
		if c := p.rc & 0xff; c != sqlite3.SQLITE_OK && c != sqlite3.SQLITE_ERROR {
			return &sqliteError{rc: p.rc, msg: p.msg}
		}
	}
	return nil
}

// canonical maps the other names of SQLite's schema tables to the one the
// authorizer reports a column read by.
func canonical(folded string) string {
	switch folded {
	case "sqlite_schema":
		return "sqlite_master"
	case "sqlite_temp_schema":
		return "sqlite_temp_master"
	}
	return folded
}

func addTo(m map[string]map[string]bool, k, v string) {
	if m[k] == nil {
		m[k] = map[string]bool{}
	}
	m[k][v] = true
}

// closeGuard closes the guard's connection (with the Source).
func (s *Source) closeGuard() {
	s.guardMu.Lock()
	defer s.guardMu.Unlock()
	s.gconn.close()
	s.gconn, s.gconnFor, s.grel, s.guardClosed = nil, nil, nil, true
}

// maxCompoundSelect is SQLite's SQLITE_MAX_COMPOUND_SELECT, the most terms
// a compound SELECT may have (the build's default).
const maxCompoundSelect = 500

// compoundTerms counts the words UNION, EXCEPT and INTERSECT in q, in any
// case, wherever they stand: one inside a string or a name counts too,
// which only matters for an absurd statement of hundreds of them. A
// statement too short to hold more than the limit is not scanned.
func compoundTerms(q string) int {
	if len(q) < maxCompoundSelect*len("UNION SELECT 1") {
		return 0
	}
	n := 0
	for i := 0; i < len(q); i++ {
		for _, w := range [...]string{"union", "except", "intersect"} {
			if i+len(w) <= len(q) && strings.EqualFold(q[i:i+len(w)], w) &&
				(i == 0 || !isWordByte(q[i-1])) && (i+len(w) == len(q) || !isWordByte(q[i+len(w)])) {
				n++
			}
		}
	}
	return n
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
