package duckdb

// The guard: what an untrusted statement may be on DuckDB, decided on
// DuckDB's own parse of it.
//
// json_serialize_sql is DuckDB's parser with its output as JSON: it parses
// exactly as the connection will (one parser, one grammar) and serializes
// SELECT statements only; SHOW, DESCRIBE, SUMMARIZE, PIVOT and UNPIVOT are
// SELECTs over a SHOW_REF or PIVOT table reference to it, and every other
// kind of statement (COPY, ATTACH, INSTALL, SET, PRAGMA, CALL, CREATE, …)
// is not serialized at all. The guard then walks the tree and accepts it
// only when every node is of a kind it knows to be read-only, with no
// field it does not know; every function is a DuckDB built-in on the lists
// of guard_allow.go; and every relation is a table or view of the source,
// a CTE in scope, or one of the listed information_schema views. A file
// name in FROM (FROM 'x.csv', a "replacement scan") is a relation that is
// not a table, and is refused like any other.
//
// Two statement kinds are not SELECTs to the parser and get special care:
//   - EXPLAIN [ANALYZE] s: s is checked instead (EXPLAIN ANALYZE runs it);
//   - a PIVOT without an IN list, which DuckDB turns into two statements
//     (a CREATE TEMPORARY TYPE … AS ENUM over the pivot's values, then the
//     SELECT): the guard checks the same statement with a placeholder IN
//     list added to each such pivot, which parses to the same tree plus
//     the placeholder.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.Guarder = (*Source)(nil)

// Guard returns nil when sql is one statement the allow-list admits, a
// refusal wrapping warehouse.ErrRejected when it is not, and DuckDB's own
// message (not a refusal) when sql does not parse, so that whoever wrote it
// can repair it. It runs nothing but DuckDB's parser and, on first use, the
// listing of the source's tables.
func (s *Source) Guard(ctx context.Context, sql string) error {
	if err := warehouse.Precheck(sql); err != nil {
		return err
	}
	if !utf8.ValidString(sql) {
		// DuckDB takes text as UTF-8 only; what it would make of other
		// bytes is not for the guard to guess.
		return warehouse.Rejectf("the statement is not valid UTF-8")
	}
	inv, err := s.guardInventory(ctx)
	if err != nil {
		return fmt.Errorf("guard: list the tables: %w", err)
	}
	tree, probe, err := s.parse(ctx, sql)
	if err != nil {
		return err
	}
	c := &checker{inv: inv}
	if err := c.statements(tree); err != nil {
		return err
	}
	if c.probes != probe {
		return warehouse.Rejectf("the PIVOT could not be checked; list its values with ON column IN (…)")
	}
	return nil
}

// guardInventory is what the guard knows of the source, from its last
// Tables: the relations it may read, the schemas SHOW TABLES FROM may list,
// the database's own name (a catalog a name may be qualified with) and
// the functions the database defines (macros), which shadow built-ins of
// the same name and are never allowed. Names are ASCII-folded, as DuckDB
// matches them.
type guardInventory struct {
	rels    *warehouse.Inventory
	schemas map[string]bool
	catalog string
	user    map[string]bool
}

// guardInventory returns the cached inventory, listing the tables first if
// no Tables has run yet.
func (s *Source) guardInventory(ctx context.Context) (*guardInventory, error) {
	s.guardMu.Lock()
	inv := s.guardInv
	s.guardMu.Unlock()
	if inv != nil {
		return inv, nil
	}
	if _, err := s.Tables(ctx); err != nil {
		return nil, err
	}
	s.guardMu.Lock()
	defer s.guardMu.Unlock()
	if s.guardInv == nil {
		return nil, errors.New("no inventory after listing the tables")
	}
	return s.guardInv, nil
}

// refreshInventory replaces the cached inventory with tables and what the
// catalog says of schemas and user-defined functions. Tables calls it.
func (s *Source) refreshInventory(ctx context.Context, tables []warehouse.Table) error {
	inv := &guardInventory{
		rels:    warehouse.NewInventory(tables, foldASCII),
		schemas: map[string]bool{},
		user:    map[string]bool{},
	}
	if err := s.db.QueryRowContext(ctx, "SELECT current_database()").Scan(&inv.catalog); err != nil {
		return fmt.Errorf("current database: %w", err)
	}
	inv.catalog = foldASCII(inv.catalog)
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	err = eachString(ctx, conn, `SELECT schema_name FROM duckdb_schemas() WHERE database_name = current_database()`,
		func(v string) { inv.schemas[foldASCII(v)] = true })
	if err != nil {
		return fmt.Errorf("schemas: %w", err)
	}
	err = eachString(ctx, conn, `SELECT DISTINCT function_name FROM duckdb_functions() WHERE NOT internal`,
		func(v string) { inv.user[foldASCII(v)] = true })
	if err != nil {
		return fmt.Errorf("user functions: %w", err)
	}
	s.guardMu.Lock()
	s.guardInv = inv
	s.guardMu.Unlock()
	return nil
}

func eachString(ctx context.Context, conn *sql.Conn, q string, fn func(string)) error {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return err
		}
		fn(v)
	}
	return rows.Err()
}

// foldASCII lowers ASCII letters only: DuckDB matches names that way
// ("Ä" and "ä" name different tables).
func foldASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// ---------------------------------------------------------------------------
// Parsing.

// pivotMarker is the placeholder value of a probe's IN lists.
const pivotMarker = "discover:pivot-probe"

// parse asks DuckDB's parser for sql's tree: of sql itself, of the
// statement an EXPLAIN explains, or of the probe of a PIVOT without an IN
// list (probes then counts the placeholders the tree must hold).
func (s *Source) parse(ctx context.Context, sql string) (tree any, probes int, err error) {
	inner, err := explained(sql)
	if err != nil {
		return nil, 0, err
	}
	if err := bounded(inner); err != nil {
		return nil, 0, err
	}
	res, err := s.serialize(ctx, inner)
	if err != nil {
		return nil, 0, err
	}
	if res.Error && res.ErrorType == "not implemented" && strings.HasPrefix(res.Message, "Only SELECT statements") {
		probe, n := pivotProbe(inner)
		if n == 0 {
			return nil, 0, notSelect(inner)
		}
		if res, err = s.serialize(ctx, probe); err != nil {
			return nil, 0, err
		}
		if res.Error {
			return nil, 0, warehouse.Rejectf("the PIVOT could not be checked (%s); list its values with ON column IN (…)", res.Message)
		}
		probes = n
	}
	switch {
	case res.Error && res.ErrorType == "parser" && tooDeep(res.Message):
		return nil, 0, warehouse.Rejectf("the statement nests deeper than DuckDB's parser allows (%s)", res.Message)
	case res.Error && res.ErrorType == "parser":
		// A syntax error: nothing that does not parse can run, and whoever
		// wrote it (a model repairing its SQL) needs DuckDB's words.
		return nil, 0, fmt.Errorf("Parser Error: %s", res.Message)
	case res.Error:
		return nil, 0, warehouse.Rejectf("DuckDB's parser: %s: %s", res.ErrorType, res.Message)
	case len(res.Statements) != 1:
		return nil, 0, warehouse.Rejectf("only one statement is allowed, not %d", len(res.Statements))
	}
	if _, err := Grammar.Tokenize(sql); err != nil {
		// DuckDB parsed what the project's lexer cannot read: the two
		// disagree on where a string or comment ends, and the EXPLAIN and
		// PIVOT handling above rely on that lexer.
		return nil, 0, fmt.Errorf("%w: %w", err, warehouse.ErrRejected)
	}
	dec := json.NewDecoder(strings.NewReader(string(res.Statements[0])))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return nil, 0, warehouse.Rejectf("DuckDB's parse does not decode: %v", err)
	}
	return tree, probes, nil
}

// tooDeep reports DuckDB's parser giving up on nesting: its expression
// depth limit, or its own stack ("memory exhausted").
func tooDeep(msg string) bool {
	return strings.Contains(msg, "Max expression depth") || strings.Contains(msg, "memory exhausted")
}

// Bounds on what DuckDB's parser takes time over: it flattens AND/OR
// chains and nests set operations at a cost that grows faster than the
// text (100,000 ANDs take it 25 s, and the parse cannot be interrupted),
// and encoding/json refuses JSON nested deeper than 10,000 levels. The
// widest statements discover writes itself stay far below (a few thousand
// ORs, hundreds of UNIONs).
const (
	maxConjunctions = 10_000
	maxSetOps       = 5_000
)

// bounded refuses a statement with more AND/OR or set operations than the
// parser is given.
func bounded(q string) error {
	toks, err := Grammar.Tokenize(q)
	if err != nil {
		return nil // DuckDB's parser will say what is wrong
	}
	conj, setops := 0, 0
	for _, t := range toks {
		switch {
		case t.IsWord("AND"), t.IsWord("OR"):
			conj++
		case t.IsWord("UNION"), t.IsWord("EXCEPT"), t.IsWord("INTERSECT"):
			setops++
		}
	}
	switch {
	case conj > maxConjunctions:
		return warehouse.Rejectf("%d ANDs and ORs are more than the %d allowed", conj, maxConjunctions)
	case setops > maxSetOps:
		return warehouse.Rejectf("%d UNION, EXCEPT and INTERSECT are more than the %d allowed", setops, maxSetOps)
	}
	return nil
}

type serialized struct {
	Error      bool              `json:"error"`
	ErrorType  string            `json:"error_type"`
	Message    string            `json:"error_message"`
	Statements []json.RawMessage `json:"statements"`
}

func (s *Source) serialize(ctx context.Context, q string) (*serialized, error) {
	var out string
	if err := s.db.QueryRowContext(ctx, "SELECT json_serialize_sql(?::VARCHAR)::VARCHAR", q).Scan(&out); err != nil {
		return nil, fmt.Errorf("parse: %w", ctxErr(ctx, err))
	}
	var res serialized
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return nil, warehouse.Rejectf("DuckDB's parser answered %.80q", out)
	}
	return &res, nil
}

// notSelect is the refusal of a statement DuckDB's parser does not read
// as one SELECT, naming what it is.
func notSelect(q string) error {
	toks, err := Grammar.Tokenize(q)
	if err != nil || len(toks) == 0 {
		return warehouse.Rejectf("only one SELECT, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE or PIVOT is allowed")
	}
	for i, t := range toks[:len(toks)-1] {
		if t.IsPunct(";") && slices.ContainsFunc(toks[i+1:], func(t warehouse.Token) bool { return !t.IsPunct(";") }) {
			return warehouse.Rejectf("only one statement is allowed")
		}
	}
	switch kind := strings.ToUpper(toks[0].Text); {
	case kind == "PIVOT" || kind == "PIVOT_WIDER":
		return warehouse.Rejectf("the PIVOT could not be checked; list its values with ON column IN (…)")
	case toks[0].Kind == warehouse.TokenWord:
		return warehouse.Rejectf("%s is not allowed (only one SELECT, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE or PIVOT is)", kind)
	}
	return warehouse.Rejectf("only one SELECT, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE or PIVOT is allowed")
}

// explained returns the statement an EXPLAIN [ANALYZE] wraps, or q itself.
// The options EXPLAIN may take are words, strings and numbers only; the
// statement after them is what DuckDB plans (and, with ANALYZE, runs).
func explained(q string) (string, error) {
	toks, err := Grammar.Tokenize(q)
	if err != nil || len(toks) == 0 || !toks[0].IsWord("EXPLAIN") {
		return q, nil // DuckDB's parser will say what is wrong
	}
	i := 1
	for i < len(toks) && (toks[i].IsWord("ANALYZE") || toks[i].IsWord("ANALYSE") || toks[i].IsWord("VERBOSE")) {
		i++
	}
	if i < len(toks) && toks[i].IsPunct("(") && !(i+1 < len(toks) && startsQuery(toks[i+1])) {
		// EXPLAIN (FORMAT json) …: an option list.
		for i++; i < len(toks) && !toks[i].IsPunct(")"); i++ {
			switch t := toks[i]; {
			case t.Kind == warehouse.TokenWord, t.Kind == warehouse.TokenString, t.Kind == warehouse.TokenNumber,
				t.IsPunct(","), t.IsPunct("="):
			default:
				return "", warehouse.Rejectf("EXPLAIN option %s is not allowed", t.Text)
			}
		}
		i++
	}
	if i >= len(toks) {
		return "", warehouse.Rejectf("EXPLAIN needs a statement")
	}
	return q[toks[i].Pos:], nil
}

func startsQuery(t warehouse.Token) bool {
	return t.IsWord("SELECT") || t.IsWord("WITH") || t.IsWord("VALUES") || t.IsWord("FROM") || t.IsPunct("(")
}

// pivotEnds are the words that end the ON list of a PIVOT statement.
var pivotEnds = warehouse.WordSet("USING", "GROUP", "ORDER", "LIMIT", "OFFSET", "UNION", "EXCEPT", "INTERSECT")

// pivotProbe adds IN ('discover:pivot-probe') to every entry of a PIVOT's
// ON list that has no IN, and returns the probe and how many it added (0:
// no PIVOT to probe). Insertions go between tokens only, after a whole
// entry, so the probe holds every token of q, in order: its tree is q's
// with a static IN list where q's pivot had to learn the values from the
// data. A probe that DuckDB then does not read that way (the placeholders
// are counted in the tree) is refused, as is a q that holds the marker.
func pivotProbe(q string) (string, int) {
	toks, err := Grammar.Tokenize(q)
	if err != nil || strings.Contains(q, pivotMarker) {
		return q, 0
	}
	depth := make([]int, len(toks)) // paren depth outside each token
	d := 0
	for i, t := range toks {
		if t.IsPunct(")") {
			d--
		}
		depth[i] = d
		if t.IsPunct("(") {
			d++
		}
	}
	var at []int // byte offsets to insert at
	for i, t := range toks {
		if !t.IsWord("PIVOT") && !t.IsWord("PIVOT_WIDER") || i > 0 && toks[i-1].IsPunct(".") ||
			i+1 < len(toks) && toks[i+1].IsPunct("(") && !startsQuery(at1(toks, i+2)) {
			continue // not a PIVOT statement (the SQL-standard PIVOT (… FOR … IN …) needs its IN)
		}
		level := depth[i]
		on := -1
		for j := i + 1; j < len(toks) && depth[j] >= level && !toks[j].IsPunct(";"); j++ {
			if depth[j] == level && toks[j].IsWord("ON") {
				on = j
				break
			}
		}
		if on < 0 {
			continue
		}
		start, hasIn := on+1, false
		for k := on + 1; ; k++ {
			end := k == len(toks) || depth[k] < level || toks[k].IsPunct(";") ||
				depth[k] == level && toks[k].Kind == warehouse.TokenWord && pivotEnds[strings.ToUpper(toks[k].Text)]
			if end || depth[k] == level && toks[k].IsPunct(",") {
				if k > start && !hasIn {
					last := toks[k-1]
					at = append(at, last.Pos+len(last.Text))
				}
				if end {
					break
				}
				start, hasIn = k+1, false
				continue
			}
			if depth[k] == level && toks[k].IsWord("IN") {
				hasIn = true
			}
		}
	}
	if len(at) == 0 {
		return q, 0
	}
	slices.Sort(at)
	var b strings.Builder
	prev := 0
	for _, p := range at {
		b.WriteString(q[prev:p])
		b.WriteString(" IN ('" + pivotMarker + "')")
		prev = p
	}
	b.WriteString(q[prev:])
	return b.String(), len(at)
}

func at1(toks []warehouse.Token, i int) warehouse.Token {
	if i < len(toks) {
		return toks[i]
	}
	return warehouse.Token{}
}
