package postgres

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/warehouse"
)

// guardFixture builds the database the guard corpora are written against
// (testdata/guard/fixture.sql): guard_e2e_test.go runs it on the server,
// and fixedCatalog is what loadCatalog reads from the result.
var guardFixture = guardcorpus.SQL(guardcorpus.MustRead("fixture.sql"))

// fixedRelations are the relations guardFixture creates, and fixedBare
// those of them an unqualified name resolves to: all of public's but
// pg_settings, which pg_catalog's shadows.
var (
	fixedRelations = []warehouse.TableName{
		tn("", "customers"), tn("", "orders"), tn("sales", "events"), tn("", "Users"), tn("", "users"),
		tn("", "order_totals"), tn("", "pg_settings"), tn("", "select"), tn("", "docs"),
		tn("sales", "metrics"), tn("sales", "metrics_2024"),
	}
	fixedBare = []string{"customers", "orders", "Users", "users", "order_totals", "select", "docs"}
)

// fixedCatalog is what loadCatalog reads from a database guardFixture
// built (TestGuardEndToEnd checks that it does), less the volatile
// functions extensions bring.
func fixedCatalog() *catalog {
	return newTestCatalog(fixedRelations, fixedBare, []string{"audit", "trim_scale", "vol_pair"}, []string{"##"})
}

func newTestCatalog(rels []warehouse.TableName, bare, funcs, ops []string) *catalog {
	tables := make([]warehouse.Table, len(rels))
	for i, r := range rels {
		tables[i] = warehouse.Table{Name: r}
	}
	set := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, n := range list {
			m[n] = true
		}
		return m
	}
	return &catalog{rels: warehouse.NewInventory(tables, nil), bare: set(bare), volatileFuncs: set(funcs), volatileOps: set(ops)}
}

// fixedGuard is the guard of a PostgreSQL 17 server holding guardFixture.
func fixedGuard(sql string) error {
	return checker{cat: fixedCatalog(), major: grammarMajor}.guard(sql)
}

func TestGuardCorpora(t *testing.T) {
	hostile := guardcorpus.Read(t, "hostile.sql")
	harmless := guardcorpus.Read(t, "harmless.sql")
	if len(hostile) < 300 || len(harmless) < 100 {
		t.Fatalf("corpora too small: %d hostile, %d harmless", len(hostile), len(harmless))
	}
	oldAccepted := 0
	for _, e := range hostile {
		err := fixedGuard(e.SQL)
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("hostile %s: accepted (%v)", e, err)
		} else if !strings.HasPrefix(err.Error(), "guard: ") {
			t.Errorf("hostile %s: refusal %q does not start with \"guard: \"", e, err)
		}
		if Grammar.Check(e.SQL) == nil {
			oldAccepted++
		}
	}
	t.Logf("old guard accepted %d of %d hostile", oldAccepted, len(hostile))
	oldRefused := 0
	for _, e := range harmless {
		if err := fixedGuard(e.SQL); err != nil {
			t.Errorf("harmless %s: %v", e, err)
		}
		if Grammar.Check(e.SQL) != nil {
			oldRefused++
		}
	}
	t.Logf("old guard refused %d of %d harmless", oldRefused, len(harmless))
}

// expertExceptions are the statements of testdata/guard/experts.jsonl the
// guard refuses, with why. The file is every statement sent through
// Source.Query during a full test run; these few came from tests of the old
// lexical guard (warehouse/guard_test.go), not from an expert.
var expertExceptions = map[string]string{
	"SELECT current_setting('search_path'), pg_table_size('t'), currval('s')": "settings, sizes and sequences are off the list",
	"SELECT `a``b`": "not PostgreSQL syntax",
	"SELECT 0x":     "not PostgreSQL syntax",
	"SELECT 1e+":    "not PostgreSQL syntax",
	"SELECT @@":     "not PostgreSQL syntax",
	"SELECT ?":      "not PostgreSQL syntax",
}

// TestGuardExperts: every statement discover's experts sent passes. The
// tables they read were made by the tests that ran them, so the catalog
// here is built from the statements' own relation references (as the
// server's parser sees them): what this checks is that no function, node
// or clause an expert writes is refused.
func TestGuardExperts(t *testing.T) {
	var stmts []string
	f, err := os.Open(filepath.Join("testdata", "guard", "experts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var q string
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, q)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(stmts) < 300 {
		t.Fatalf("only %d expert statements", len(stmts))
	}
	var rels []warehouse.TableName
	var bare []string
	for _, q := range stmts {
		for _, rv := range jsonRangeVars(q) {
			schema := rv.Schema
			if schema == "public" {
				schema = ""
			}
			rels = append(rels, tn(schema, rv.Name))
			if rv.Schema == "" {
				bare = append(bare, rv.Name)
			}
		}
	}
	c := checker{cat: newTestCatalog(rels, bare, nil, nil), major: grammarMajor}
	refused := map[string]bool{}
	for _, q := range stmts {
		err := c.guard(q)
		if why, ok := expertExceptions[q]; ok {
			refused[q] = true
			if !errors.Is(err, warehouse.ErrRejected) {
				t.Errorf("%s (%s): accepted, want a refusal", q, why)
			}
			continue
		}
		if err != nil {
			t.Errorf("expert statement refused: %v\n%.500s", err, q)
		}
	}
	if len(refused) != len(expertExceptions) {
		t.Errorf("%d of the %d exceptions are in the corpus: remove the others", len(refused), len(expertExceptions))
	}
	t.Logf("%d expert statements, %d refused as expected", len(stmts), len(refused))
}

// jsonRangeVars returns the relations q names, from pg_query's JSON.
func jsonRangeVars(q string) []warehouse.TableName {
	js, err := pg_query.ParseToJSON(q)
	if err != nil {
		return nil
	}
	var tree any
	if json.Unmarshal([]byte(js), &tree) != nil {
		return nil
	}
	var out []warehouse.TableName
	walkJSON(tree, func(key string, m map[string]any) {
		if key == "RangeVar" {
			s, _ := m["schemaname"].(string)
			n, _ := m["relname"].(string)
			out = append(out, warehouse.TableName{Schema: s, Name: n})
		}
	})
	return out
}

// walkJSON calls f for every object of tree with the key it sits under.
func walkJSON(tree any, f func(key string, m map[string]any)) {
	switch v := tree.(type) {
	case map[string]any:
		for k, c := range v {
			if m, ok := c.(map[string]any); ok {
				f(k, m)
			}
			walkJSON(c, f)
		}
	case []any:
		for _, c := range v {
			walkJSON(c, f)
		}
	}
}

// hugeInputs are the inputs built to exhaust a parser that
// TestGuardHugeInputs and BenchmarkBarGuardHugeInputs give the guard: each
// must end in a refusal.
func hugeInputs() map[string]string {
	return map[string]string{
		"10 MB string":                 "SELECT '" + strings.Repeat("x", 10<<20) + "'",
		"10 MB of identifiers":         "SELECT " + strings.Repeat("a, ", 10<<20/3) + "a",
		"100,000-deep parentheses":     "SELECT " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000),
		"100,000-deep brackets":        "SELECT ARRAY" + strings.Repeat("[", 100000) + "1" + strings.Repeat("]", 100000),
		"1,000,000 chained additions":  "SELECT 1" + strings.Repeat("+1", 1000000),
		"500,000 chained casts":        "SELECT 1" + strings.Repeat("::int", 500000),
		"500,000 chained NOTs":         "SELECT " + strings.Repeat("NOT ", 500000) + "true",
		"200,000 chained IS NULL":      "SELECT 1" + strings.Repeat(" IS NULL", 200000),
		"200,000 chained COLLATE":      "SELECT 'a'" + strings.Repeat(` COLLATE "C"`, 200000),
		"100,000 chained UNIONs":       "SELECT 1" + strings.Repeat(" UNION SELECT 1", 100000),
		"100,000 chained JOINs":        "SELECT 1 FROM customers" + strings.Repeat(" JOIN customers c ON true", 100000),
		"100,000 nested CASEs":         "SELECT " + strings.Repeat("CASE WHEN true THEN ", 100000) + "1" + strings.Repeat(" END", 100000),
		"100,000 chained BETWEENs":     "SELECT 1" + strings.Repeat(" BETWEEN 1 AND 1", 100000),
		"NUL byte then a second query": "SELECT 1\x00; SELECT pg_sleep(10)",
	}
}

// TestGuardHugeInputs: inputs built to exhaust a parser end in a refusal,
// and not in a crash (how quickly is BenchmarkBarGuardHugeInputs's bar; the
// test only logs it). Each of the deep ones would overflow libpg_query's C
// stack and kill the process if it reached the parser.
func TestGuardHugeInputs(t *testing.T) {
	for name, sql := range hugeInputs() {
		start := time.Now()
		err := fixedGuard(sql)
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: %v, want a refusal", name, err)
		}
		t.Logf("%s (%d bytes): %.120v in %s", name, len(sql), err, time.Since(start).Round(time.Millisecond))
	}

	// Wide but flat statements are judged on their merits: AND and OR
	// lists are flat in the parse tree, however long.
	for name, sql := range map[string]string{
		"1 MB select list":       "SELECT " + strings.Repeat("count(id) + 1, ", 1<<20/15) + "1 FROM customers",
		"50,000 ANDed NOTs":      "SELECT true" + strings.Repeat(" AND NOT NOT NOT true", 50000),
		"50,000 ORed equalities": "SELECT 1 FROM customers WHERE" + strings.Repeat(" id = 1 OR", 50000) + " false",
	} {
		start := time.Now()
		if err := fixedGuard(sql); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		t.Logf("%s (%d bytes): accepted in %s", name, len(sql), time.Since(start).Round(time.Millisecond))
	}
}

// TestGuardDepthBound: discover's own widest shapes stay far below the
// bound, and the bound is what refuses a deep chain.
func TestGuardDepthBound(t *testing.T) {
	var b strings.Builder
	for i := range 200 { // experts/statistical: maxBranches
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&b, `SELECT k, v, n FROM (SELECT %d AS k, CAST("name" AS TEXT) AS v, COUNT(*) AS n FROM "customers" WHERE "name" IS NOT NULL GROUP BY "name" ORDER BY 3 DESC, 2 LIMIT 50) t%d`, i, i)
	}
	if err := fixedGuard(b.String()); err != nil {
		t.Errorf("a UNION ALL of 200 branches: %v", err)
	}
	if err := fixedGuard("SELECT 1" + strings.Repeat("+1", maxDepth-10)); err != nil {
		t.Errorf("a chain just under the bound: %v", err)
	}
	err := fixedGuard("SELECT 1" + strings.Repeat("+1", maxDepth+1))
	if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "levels deep") {
		t.Errorf("a chain over the bound: %v", err)
	}
}

// TestGuardRefusals: what each kind of refusal says.
func TestGuardRefusals(t *testing.T) {
	for sql, want := range map[string]string{
		`SELECT U&"\0070g_read_file"('/etc/passwd')`:                "function pg_read_file is not on the list of side-effect-free functions",
		`SELECT public.lower('x')`:                                  "function public.lower is not on the list",
		`SELECT trim_scale(1)`:                                      "volatile namesake outside pg_catalog",
		`SELECT c.audit FROM customers c`:                           "volatile function outside pg_catalog",
		`SELECT * FROM pg_shadow`:                                   "pg_shadow is not a table or view of this database",
		`SELECT * FROM pg_settings`:                                 "write public.pg_settings",
		`SELECT * FROM information_schema.tables`:                   "information_schema.tables is not a table or view",
		`SELECT * FROM db.public.customers`:                         "database-qualified names",
		`SELECT * FROM customers FOR UPDATE`:                        "FOR UPDATE/SHARE is not allowed",
		`SELECT * INTO x FROM customers`:                            "SELECT INTO is not allowed",
		`WITH d AS (DELETE FROM orders RETURNING *) SELECT 1`:       "WITH query d is DELETE",
		`COPY customers TO STDOUT`:                                  "only SELECT, EXPLAIN and SHOW are allowed, not COPY",
		`DO $$BEGIN END$$`:                                          "not DO",
		`EXPLAIN ANALYZE DELETE FROM orders`:                        "EXPLAIN is allowed of a SELECT only, not of DELETE",
		`EXPLAIN (PWN) SELECT 1`:                                    "EXPLAIN option pwn is not allowed",
		`SHOW ALL`:                                                  "SHOW ALL is not allowed",
		`SHOW data_directory`:                                       "SHOW data_directory is not allowed",
		`SELECT 'pg_authid'::regclass`:                              "type regclass is not allowed",
		`SELECT 1 OPERATOR(public.+) 2`:                             "operator public.+ is not a built-in operator",
		`SELECT 1 ## 2`:                                             "operator ## has a volatile namesake",
		`SELECT * FROM customers TABLESAMPLE system_rows(1)`:        "TABLESAMPLE system_rows is not allowed",
		`SELECT xmlelement(name a)`:                                 "an XML function is not allowed",
		`SELECT 1; SELECT 2`:                                        "only one statement is allowed (found 2)",
		`SELECT (`:                                                  "the statement does not parse",
		`;`:                                                         "empty statement",
		`SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) a, x`: "x is not a table or view",
	} {
		err := fixedGuard(sql)
		if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a refusal saying %q", sql, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: refusal of more than one line: %q", sql, err)
		}
	}
}

// TestGuardScope: CTE names are visible exactly where PostgreSQL makes
// them visible. An unqualified reference outside the scope is to a table,
// which the fixture has no "x" of.
func TestGuardScope(t *testing.T) {
	for sql, ok := range map[string]bool{
		`WITH x AS (SELECT 1) SELECT * FROM x`:                                                      true,
		`WITH x AS (SELECT 1), y AS (SELECT * FROM x) SELECT * FROM y`:                              true,
		`WITH y AS (SELECT * FROM x), x AS (SELECT 1) SELECT * FROM y`:                              false,
		`WITH RECURSIVE y AS (SELECT * FROM x), x AS (SELECT 1) SELECT * FROM y`:                    true,
		`WITH x AS (SELECT * FROM x) SELECT * FROM x`:                                               false,
		`WITH RECURSIVE x AS (SELECT 1 UNION ALL SELECT 1 FROM x) SELECT * FROM x`:                  true,
		`WITH x AS (SELECT 1) SELECT * FROM (SELECT * FROM x) s`:                                    true,
		`WITH x AS (SELECT 1) SELECT (SELECT count(*) FROM x)`:                                      true,
		`SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) s`:                                    true,
		`SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) s, x`:                                 false,
		`(WITH x AS (SELECT 1) SELECT * FROM x) UNION SELECT * FROM x`:                              false,
		`WITH x AS (SELECT 1) SELECT * FROM x UNION SELECT * FROM x`:                                true,
		`WITH x AS (SELECT 1) SELECT * FROM public.x`:                                               false,
		`WITH a AS (WITH x AS (SELECT 1) SELECT * FROM x), b AS (SELECT * FROM x) SELECT 1`:         false,
		`WITH x AS (SELECT 1) SELECT 1 WHERE EXISTS (SELECT * FROM x)`:                              true,
		`SELECT 1 WHERE EXISTS (WITH x AS (SELECT 1) SELECT * FROM x) AND EXISTS (SELECT * FROM x)`: false,
		`EXPLAIN WITH x AS (SELECT 1) SELECT * FROM x`:                                              true,
	} {
		if err := fixedGuard(sql); (err == nil) != ok {
			t.Errorf("%s: %v, want accepted %v", sql, err, ok)
		}
	}
}

// TestGuardSQLJSON: the SQL/JSON syntax of PostgreSQL 16 and 17 passes
// when the server parses it as the guard does, and not on an older server,
// which reads JSON_OBJECT(…) as a call of whatever function has the name.
func TestGuardSQLJSON(t *testing.T) {
	for _, sql := range []string{
		`SELECT JSON_OBJECT('a' VALUE 1)`,
		`SELECT JSON_VALUE(profile, '$.a' RETURNING int) FROM customers`,
		`SELECT * FROM JSON_TABLE('[1,2]', '$[*]' COLUMNS (v int PATH '$')) t`,
		`SELECT profile IS JSON OBJECT FROM customers`,
	} {
		if err := (checker{cat: fixedCatalog(), major: 17}).guard(sql); err != nil {
			t.Errorf("%s on PostgreSQL 17: %v", sql, err)
		}
		err := checker{cat: fixedCatalog(), major: 15}.guard(sql)
		if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "needs PostgreSQL 17") {
			t.Errorf("%s on PostgreSQL 15: %v", sql, err)
		}
	}
	err := checker{cat: fixedCatalog(), major: 17}.guard(`SELECT JSON_VALUE(profile, '$.a' RETURNING regclass) FROM customers`)
	if !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("SQL/JSON RETURNING regclass: %v", err)
	}
}

// TestCappedBodyByTheServersParser: the row cap wraps the statement the
// server's parser delimits, without its semicolon.
func TestCappedBodyByTheServersParser(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT 1":                       "SELECT 1",
		"SELECT 1;":                      "SELECT 1",
		"SELECT 1 ; -- done":             "SELECT 1 ",
		"-- lead\nSELECT ';' AS s;":      "-- lead\nSELECT ';' AS s",
		"(SELECT 1) UNION (SELECT 2) --": "(SELECT 1) UNION (SELECT 2) --",
		"VALUES (1)":                     "VALUES (1)",
		"TABLE customers;":               "TABLE customers",
		"SELECT $$;$$":                   "SELECT $$;$$",
	} {
		if got, ok := cappedBody(q); !ok || got != want {
			t.Errorf("cappedBody(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
	for _, q := range []string{"EXPLAIN SELECT 1", "SHOW TimeZone", "SELECT 1; SELECT 2", "SELECT (", ""} {
		if got, ok := cappedBody(q); ok {
			t.Errorf("cappedBody(%q) = %q; want it left uncapped", q, got)
		}
	}
}

// FuzzPostgresGuard: whatever the guard accepts calls only allow-listed
// functions and reads only the catalog's relations or CTEs, as seen by a
// walk of pg_query's JSON that shares nothing with the guard's own typed
// walk. Seeded with both corpora and the experts' statements.
func FuzzPostgresGuard(f *testing.F) {
	for _, name := range []string{"hostile.sql", "harmless.sql"} {
		for _, e := range guardcorpus.Read(f, name) {
			f.Add(e.SQL)
		}
	}
	for _, q := range guardcorpus.ReadStatements(f, "experts.jsonl") {
		if !strings.Contains(q, "hive.sales") {
			f.Add(q)
		}
	}
	cat := fixedCatalog()
	f.Fuzz(func(t *testing.T, sql string) {
		err := checker{cat: cat, major: grammarMajor}.guard(sql)
		if err != nil {
			if !errors.Is(err, warehouse.ErrRejected) {
				t.Fatalf("%q: an error that is not a refusal: %v", sql, err)
			}
			return
		}
		if bad := independentCheck(sql, cat); bad != "" {
			t.Fatalf("accepted %q, but %s", sql, bad)
		}
	})
}

// forbiddenKeys are node types no accepted statement may hold.
var forbiddenKeys = []string{
	"InsertStmt", "UpdateStmt", "DeleteStmt", "MergeStmt", "CopyStmt", "DoStmt", "CallStmt",
	"VariableSetStmt", "TransactionStmt", "IntoClause", "LockingClause", "XmlExpr", "XmlSerialize",
	"RangeTableFunc", "DeclareCursorStmt", "ExecuteStmt", "PrepareStmt", "NotifyStmt", "ListenStmt",
	"CreateTableAsStmt", "intoClause", "lockingClause",
}

// independentCheck walks pg_query's JSON for sql generically and returns
// what breaks the guard's promise, or "".
func independentCheck(sql string, cat *catalog) string {
	js, err := pg_query.ParseToJSON(sql)
	if err != nil {
		return "pg_query cannot parse it to JSON: " + err.Error()
	}
	var tree map[string]any
	if err := json.Unmarshal([]byte(js), &tree); err != nil {
		return "its JSON does not decode: " + err.Error()
	}
	if stmts, _ := tree["stmts"].([]any); len(stmts) != 1 {
		return fmt.Sprintf("it holds %d statements", len(stmts))
	}
	ctes := map[string]bool{}
	walkJSON(tree, func(key string, m map[string]any) {
		if key == "CommonTableExpr" {
			name, _ := m["ctename"].(string)
			ctes[name] = true
		}
	})
	var bad []string
	walkJSON(tree, func(key string, m map[string]any) {
		switch {
		case slices.Contains(forbiddenKeys, key):
			bad = append(bad, "it holds a "+key)
		case key == "FuncCall":
			parts := jsonNames(m["funcname"])
			if n := len(parts); n == 0 || n > 2 || n == 2 && parts[0] != "pg_catalog" || !allowedFunctions[parts[n-1]] {
				bad = append(bad, "it calls "+strings.Join(parts, "."))
			}
		case key == "RangeVar":
			schema, _ := m["schemaname"].(string)
			name, _ := m["relname"].(string)
			switch {
			case m["catalogname"] != nil:
				bad = append(bad, "it names another database")
			case schema == "" && !ctes[name] && !cat.bare[name]:
				bad = append(bad, "it reads "+name)
			case schema == "public" && !cat.rels.Has("", name), schema != "" && schema != "public" && !cat.rels.Has(schema, name):
				bad = append(bad, "it reads "+schema+"."+name)
			}
		case key == "typeName" || key == "TypeName":
			parts := jsonNames(m["names"])
			if n := len(parts); n == 0 || !allowedTypes[parts[n-1]] || n == 2 && parts[0] != "pg_catalog" {
				bad = append(bad, "it names the type "+strings.Join(parts, "."))
			}
		}
	})
	return strings.Join(bad, "; ")
}

// jsonNames returns the strings of a JSON name list ([{"String": {"sval": …}}]).
func jsonNames(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, n := range list {
		m, _ := n.(map[string]any)
		s, _ := m["String"].(map[string]any)
		sval, _ := s["sval"].(string)
		out = append(out, sval)
	}
	return out
}

// BenchmarkGuardHarmless times the guard over the harmless corpus, against
// the old lexical guard over the same statements in the same run
// (go test -bench GuardHarmless ./warehouse/postgres).
func BenchmarkGuardHarmless(b *testing.B) {
	qs := guardcorpus.SQL(guardcorpus.Read(b, "harmless.sql"))
	b.Run("allow-list", func(b *testing.B) {
		for range b.N {
			for _, q := range qs {
				if err := fixedGuard(q); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("old lexer", func(b *testing.B) {
		for range b.N {
			for _, q := range qs {
				_ = Grammar.Check(q)
			}
		}
	})
}
