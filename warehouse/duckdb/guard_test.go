package duckdb

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/warehouse"
)

// guardEnv is what the guard tests run against: a database file and a CSV
// folder holding the same tables, secret files outside both that no
// statement may read, and an empty folder a write would land in.
type guardEnv struct {
	file       string // the database file
	folder     string // the CSV folder
	secretDir  string // holds secret.csv, secret.json, secret.txt
	secretText string // the content no result or error may hold
	out        string // where the corpus points its writes
}

// guardTables are the guard tests' tables (harmless.sql reads them), and
// guardExtras what exists in the database file only: a sequence and macros
// a hostile statement may try to call by name. Both come from
// testdata/guard/fixture.sql, the extras from its entry "file only" on.
var guardTables, guardExtras = func() (tables, extras []string) {
	entries := guardcorpus.MustRead("fixture.sql")
	for i, e := range entries {
		if strings.HasPrefix(e.Comment, "file only") {
			return guardcorpus.SQL(entries[:i]), guardcorpus.SQL(entries[i:])
		}
	}
	panic("fixture.sql has no entry \"file only\"")
}()

func newGuardEnv(t testing.TB) *guardEnv {
	t.Helper()
	root := t.TempDir()
	e := &guardEnv{
		file:      filepath.Join(root, "db", "shop.duckdb"),
		folder:    filepath.Join(root, "lake"),
		secretDir: filepath.Join(root, "private"),
		out:       filepath.Join(root, "out"),
	}
	for _, d := range []string{filepath.Dir(e.file), e.folder, e.secretDir, e.out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	token := make([]byte, 12)
	if _, err := rand.Read(token); err != nil {
		t.Fatal(err)
	}
	e.secretText = "S3CR3T-" + hex.EncodeToString(token)
	for name, content := range map[string]string{
		"secret.csv":  "secret\n" + e.secretText + "\n",
		"secret.json": `{"secret": "` + e.secretText + `"}` + "\n",
		"secret.txt":  e.secretText + "\n",
	} {
		if err := os.WriteFile(filepath.Join(e.secretDir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stmts := append(slices.Clone(guardTables), guardExtras...)
	for _, tb := range []string{"customer", "orders", "order_items", "events"} {
		stmts = append(stmts, fmt.Sprintf("COPY %s TO %s (HEADER)", tb, quoteString(filepath.Join(e.folder, tb+".csv"))))
	}
	db, err := sql.Open("duckdb", e.file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return e
}

// source is one of the two sources the corpus runs against.
type source struct {
	name string
	dsn  string
	data string // a data file of the source ({{DATA}})
	dir  string // the folder it lives in ({{DIR}})
}

func (e *guardEnv) sources() []source {
	return []source{
		{name: "file", dsn: "duckdb://" + e.file, data: e.file, dir: filepath.Dir(e.file)},
		{name: "folder", dsn: "duckdb://" + e.folder, data: filepath.Join(e.folder, "orders.csv"), dir: e.folder},
	}
}

// fill puts the test's paths into a corpus entry.
func (e *guardEnv) fill(sql string, src source) string {
	return strings.NewReplacer(
		"{{SECRET}}", filepath.Join(e.secretDir, "secret.csv"),
		"{{SECRET_DIR}}", e.secretDir,
		"{{OUT}}", e.out,
		"{{DATA}}", src.data,
		"{{DIR}}", src.dir,
	).Replace(sql)
}

// refusal reports whether err is the guard refusing, or DuckDB's parser
// failing on a statement the corpus marks [syntax]; either way the
// statement never ran.
func refusal(err error, e guardcorpus.Entry) bool {
	if errors.Is(err, warehouse.ErrRejected) {
		return true
	}
	return err != nil && strings.Contains(e.Comment, "[syntax]") && strings.Contains(err.Error(), "Parser Error")
}

// oldParseCheck is the check Query made before the allow-list guard (its
// parseCheck): DuckDB's parser must read the statement, or the one an
// EXPLAIN wraps, as exactly one SELECT. It is kept here to count what the
// old layers let through.
func oldParseCheck(ctx context.Context, s *Source, q string) error {
	inner, err := explained(q)
	if err != nil {
		inner = q
	}
	res, err := s.serialize(ctx, inner)
	if err != nil {
		return err
	}
	if res.Error || len(res.Statements) != 1 {
		return warehouse.ErrRejected
	}
	return nil
}

func TestGuardCorpus(t *testing.T) {
	env := newGuardEnv(t)
	harmless, hostile := guardcorpus.Read(t, "harmless.sql"), guardcorpus.Read(t, "hostile.sql")
	if len(harmless) < 100 || len(hostile) < 300 {
		t.Fatalf("corpus too small: %d harmless, %d hostile", len(harmless), len(hostile))
	}
	ctx := context.Background()
	for i, src := range env.sources() {
		t.Run(src.name, func(t *testing.T) {
			s := open(t, src.dsn)
			for _, e := range harmless {
				q := env.fill(e.SQL, src)
				if err := s.Guard(ctx, q); err != nil {
					t.Errorf("harmless %s refused: %v", e, err)
					continue
				}
				if _, err := s.Query(ctx, q, warehouse.QueryOptions{MaxRows: 50, Timeout: 20 * time.Second}); err != nil {
					t.Errorf("harmless %s does not run: %v", e, err)
				}
			}
			oldLex, oldBoth, parseErrs, accepted := 0, 0, 0, 0
			for _, e := range hostile {
				q := env.fill(e.SQL, src)
				err := s.Guard(ctx, q)
				if !refusal(err, e) {
					t.Errorf("hostile %s: Guard = %v; want a refusal", e, err)
				}
				switch {
				case err == nil:
					accepted++
				case !errors.Is(err, warehouse.ErrRejected):
					parseErrs++
				}
				if Grammar.Check(q) == nil {
					oldLex++
					if oldParseCheck(ctx, s, q) == nil {
						oldBoth++
					}
				}
			}
			if i == 0 {
				t.Logf("old guard accepted %d of %d hostile", oldLex, len(hostile))
				t.Logf("old guard and old parser check together accepted %d of %d hostile", oldBoth, len(hostile))
			}
			t.Logf("%s source: new guard accepted %d of %d hostile (%d of them failed in DuckDB's parser instead)",
				src.name, accepted, len(hostile), parseErrs)
		})
	}
}

// TestGuardEndToEnd runs every hostile statement through Query on both
// sources and checks that nothing on disk changed, no file appeared and no
// secret reached a result or an error.
func TestGuardEndToEnd(t *testing.T) {
	env := newGuardEnv(t)
	hostile := guardcorpus.Read(t, "hostile.sql")
	ctx := context.Background()
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range env.sources() {
		t.Run(src.name, func(t *testing.T) {
			watched := []string{src.dir, env.secretDir, env.out, cwd}
			before := snapshot(t, watched...)
			s := open(t, src.dsn)
			for _, e := range hostile {
				q := env.fill(e.SQL, src)
				res, err := s.Query(ctx, q, warehouse.QueryOptions{MaxRows: 100, Timeout: 10 * time.Second})
				if !refusal(err, e) {
					t.Errorf("hostile %s: Query = %v; want a refusal", e, err)
				}
				if leaked(res, err, env.secretText) {
					t.Errorf("hostile %s: the secret reached the caller: %v %v", e, res, err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, watched...)
			for path, sum := range before {
				if after[path] != sum {
					t.Errorf("%s changed", path)
				}
			}
			for path := range after {
				if _, ok := before[path]; !ok {
					t.Errorf("%s was created", path)
				}
			}
		})
	}
}

// snapshot maps every file below dirs to its checksum.
func snapshot(t *testing.T, dirs ...string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, de os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if de.IsDir() {
				if p != d && (de.Name() == "testdata" || strings.HasPrefix(de.Name(), ".")) {
					return filepath.SkipDir // the package's own fixtures are not written to by anyone
				}
				out[p+"/"] = [32]byte{}
				return nil
			}
			out[p] = digest(t, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func leaked(res *warehouse.Result, err error, secret string) bool {
	if err != nil && strings.Contains(err.Error(), secret) {
		return true
	}
	if res == nil {
		return false
	}
	b, _ := json.Marshal(res.Rows)
	return strings.Contains(string(b), secret) || strings.Contains(fmt.Sprint(res.Rows), secret)
}

// TestGuardExperts checks that the statements discover's experts sent
// during a full test run (testdata/guard/experts.jsonl) are never refused
// for a function, a node or a clause. Relations are another matter: the
// statements come from runs over several databases, so each statement is
// checked against an inventory of the relations it names itself (its
// BASE_TABLE references), which leaves everything but relations to the
// allow-list.
func TestGuardExperts(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "guard", "experts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Not experts' statements: test cases of the old lexical guard
	// (warehouse/guard_test.go) that the recording also caught; each is
	// refused by design.
	notExpert := map[string]string{
		"SELECT * FROM read_text('notes/*.txt')": "reads files",
		// DuckDB reads a backtick as an operator character, not a quote:
		// this is a ` postfix operator applied to a.
		"SELECT `a``b`": "calls the operator `",
	}
	s := open(t, build(t, "x.duckdb"))
	ctx := context.Background()
	real, err := s.guardInventory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	n, syntax := 0, 0
	for sc.Scan() {
		var q string
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		n++
		tree, probes, err := s.parse(ctx, q)
		if err != nil {
			if !errors.Is(err, warehouse.ErrRejected) {
				syntax++ // a statement the experts' tests send to see it fail
				continue
			}
			if _, ok := notExpert[q]; !ok {
				t.Errorf("expert statement refused before the walk: %v\n%s", err, q)
			}
			continue
		}
		inv := *real
		inv.rels = warehouse.NewInventory(namedTables(tree), foldASCII)
		c := &checker{inv: &inv}
		err = c.statements(tree)
		if err == nil && c.probes != probes {
			err = fmt.Errorf("probe placeholders %d of %d", c.probes, probes)
		}
		_, excused := notExpert[q]
		switch {
		case err != nil && !excused:
			t.Errorf("expert statement refused: %v\n%s", err, q)
		case err == nil && excused:
			t.Errorf("statement accepted, but it %s: %s", notExpert[q], q)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 250 {
		t.Fatalf("only %d expert statements", n)
	}
	t.Logf("%d expert statements checked (%d are syntax errors on purpose)", n, syntax)
}

// namedTables lists the BASE_TABLE references of a parse, as tables.
func namedTables(tree any) []warehouse.Table {
	var out []warehouse.Table
	walkJSON(tree, func(o map[string]any) {
		if o["type"] == "BASE_TABLE" {
			schema, _ := o["schema_name"].(string)
			name, _ := o["table_name"].(string)
			out = append(out, warehouse.Table{Name: warehouse.TableName{Schema: schema, Name: name}})
		}
	})
	return out
}

// walkJSON calls fn on every object of a decoded JSON value.
func walkJSON(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		fn(x)
		for _, e := range x {
			walkJSON(e, fn)
		}
	case []any:
		for _, e := range x {
			walkJSON(e, fn)
		}
	}
}

// guardLimits are the statements TestGuardLimits and BenchmarkBarGuardLimits
// give the guard: a 10 MB statement and 100,000-deep nesting, in brackets
// or in operators the parser nests without them. Each must end in a
// refusal.
func guardLimits() map[string]string {
	return map[string]string{
		"10 MB":                     "SELECT '" + strings.Repeat("x", 10<<20) + "'",
		"100,000 parentheses":       "SELECT " + strings.Repeat("(", 100_000) + "1" + strings.Repeat(")", 100_000),
		"100,000 brackets":          "SELECT " + strings.Repeat("[", 100_000) + "1" + strings.Repeat("]", 100_000),
		"100,000 subqueries":        strings.Repeat("SELECT * FROM (", 100_000) + "SELECT 1" + strings.Repeat(")", 100_000),
		"100,000 NOTs":              "SELECT " + strings.Repeat("NOT ", 100_000) + "true",
		"100,000 minus signs":       "SELECT " + strings.Repeat("- ", 100_000) + "1",
		"100,000 additions":         "SELECT 1" + strings.Repeat(" + 1", 100_000),
		"100,000 casts":             "SELECT 1" + strings.Repeat("::INTEGER", 100_000),
		"100,000 CASEs":             "SELECT " + strings.Repeat("CASE WHEN true THEN ", 100_000) + "1" + strings.Repeat(" END", 100_000),
		"100,000 ANDs":              "SELECT true" + strings.Repeat(" AND true", 100_000),
		"100,000 UNIONs":            "SELECT 1" + strings.Repeat(" UNION ALL SELECT 1", 100_000),
		"5,000 UNIONs, a file read": "SELECT 1" + strings.Repeat(" UNION ALL SELECT 1", 4_999) + " UNION ALL SELECT * FROM read_text('/etc/passwd')",
		"3 MB then a file read":     "SELECT '" + strings.Repeat("x", 3<<20) + "' FROM read_text('/etc/passwd')",
		"100,000 nested comments, a file read": strings.Repeat("/* ", 100_000) + strings.Repeat(" */", 100_000) +
			" SELECT * FROM read_text('/etc/passwd')",
		"100,000 quotes in name": `SELECT * FROM "` + strings.Repeat(`""`, 100_000) + `"`,
	}
}

// TestGuardLimits: the statements of guardLimits end in a refusal (how
// quickly is BenchmarkBarGuardLimits's bar; the test only logs it).
func TestGuardLimits(t *testing.T) {
	s := open(t, build(t, "x.duckdb"))
	ctx := context.Background()
	for name, q := range guardLimits() {
		start := time.Now()
		err := s.Guard(ctx, q)
		d := time.Since(start)
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: Guard = %.200v; want a refusal", name, err)
		}
		msg := fmt.Sprint(err)
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		t.Logf("%s: %s: %s", name, d.Round(time.Millisecond), msg)
	}
}

// TestGuardSnapshotSees proves TestGuardEndToEnd's snapshot can fail: a
// file written or changed in a watched folder shows.
func TestGuardSnapshotSees(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a"), []byte("1"), 0o644)
	before := snapshot(t, dir)
	os.WriteFile(filepath.Join(dir, "a"), []byte("2"), 0o644)
	os.WriteFile(filepath.Join(dir, "b"), []byte("3"), 0o644)
	after := snapshot(t, dir)
	if after[filepath.Join(dir, "a")] == before[filepath.Join(dir, "a")] {
		t.Error("a change went unseen")
	}
	if _, ok := before[filepath.Join(dir, "b")]; ok || len(after) != len(before)+1 {
		t.Error("a new file went unseen")
	}
	if !leaked(&warehouse.Result{Rows: [][]any{{"x S3CR3T y"}}}, nil, "S3CR3T") || !leaked(nil, errors.New("S3CR3T"), "S3CR3T") {
		t.Error("leaked misses a secret")
	}
}

// TestGuardNames covers how the guard resolves relation names: as DuckDB
// does (ASCII case folding, catalog and schema qualifiers, CTE scopes).
func TestGuardNames(t *testing.T) {
	s := open(t, build(t, "shop.duckdb"))
	ctx := context.Background()
	for _, q := range []string{
		`SELECT * FROM CUSTOMER`, `SELECT * FROM "Customer"`, `SELECT * FROM main.customer`,
		`SELECT * FROM shop.customer`, `SELECT * FROM shop.main.customer`, `SELECT * FROM sales.region`,
		`SELECT * FROM SALES.REGION`, `SELECT * FROM shop.sales.region`, `SELECT * FROM "say ""hi"""`,
		`SELECT * FROM "big orders"`, `SELECT * FROM "order items" AS i JOIN orders o ON o.id = i.order_id`,
		`WITH Big AS (SELECT 1) SELECT * FROM big`, `WITH a AS (SELECT 1), b AS (SELECT * FROM a) SELECT * FROM b`,
		`WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r`,
		`SELECT * FROM information_schema.columns`, `SELECT * FROM system.information_schema.tables`,
		`SHOW TABLES FROM sales`, `SHOW TABLES FROM main`, `SHOW DATABASES`, `SHOW SCHEMAS`, `DESCRIBE sales.region`,
		`SELECT name.lower() FROM customer`, `SELECT ?`, `SELECT $1`, `EXPLAIN (FORMAT json) SELECT 1`,
		`EXPLAIN ANALYZE PIVOT customer ON name`,
	} {
		if err := s.Guard(ctx, q); err != nil {
			t.Errorf("Guard(%q) = %v", q, err)
		}
	}
	for q, want := range map[string]string{
		`SELECT * FROM other.main.customer`:                         `"other"."main"."customer" is not a table or view`,
		`SELECT * FROM temp.main.customer`:                          `"temp"."main"."customer" is not a table or view`,
		`SELECT * FROM sales.customer`:                              `"sales"."customer" is not a table or view`,
		`SELECT * FROM ext`:                                         `"ext" is not a table or view`, // skipped: its file cannot be read
		`SELECT * FROM information_schema.views`:                    `"information_schema"."views" is not a table or view`,
		`SELECT * FROM "/etc/passwd"`:                               `"/etc/passwd" is not a table or view`,
		`WITH x AS (SELECT * FROM x) SELECT * FROM x`:               `"x" is not a table or view`,
		`SELECT * FROM (WITH x AS (SELECT 1) SELECT 1) s, x`:        `"x" is not a table or view`,
		`SHOW TABLES FROM nope`:                                     `SHOW TABLES FROM "nope" is not allowed`,
		`SELECT * FROM read_text('x')`:                              `table function read_text is not on the list`,
		`SELECT current_setting('threads')`:                         `function current_setting is not on the list`,
		`SELECT pg_catalog.lower('x')`:                              `function "pg_catalog"."lower" is not on the list`,
		`SELECT other.main.lower('x')`:                              `function "other"."main"."lower" is not on the list`,
		`COPY customer TO 'x.csv'`:                                  `COPY is not allowed`,
		`SELECT 1; SELECT 2`:                                        `only one statement is allowed, not 2`,
		`SELECT 1; COPY customer TO 'x.csv'`:                        `only one statement is allowed`,
		`SELECT 1; SELECT 2;`:                                       `only one statement is allowed, not 2`,
		`SET threads = 1;`:                                          `SET is not allowed`,
		`EXPLAIN (FORMAT json, x) SELECT 1; SELECT 2`:               `only one statement is allowed`,
		`SELECT * FROM customer AT (VERSION => 1)`:                  `AT (…) time travel is not allowed`,
		`PIVOT customer ON name IN ('discover:pivot-probe'), email`: `the PIVOT could not be checked`,
	} {
		err := s.Guard(ctx, q)
		if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "guard: ") {
			t.Errorf("Guard(%q) = %v; want a refusal saying %q", q, err, want)
		}
	}
	if err := s.Guard(ctx, "SELECT '\xff' FROM read_text('/etc/passwd')"); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("invalid UTF-8: %v", err)
	}
	// A syntax error comes back as DuckDB says it, not as a refusal.
	if err := s.Guard(ctx, "SELECT * FORM customer"); err == nil || errors.Is(err, warehouse.ErrRejected) ||
		!strings.HasPrefix(err.Error(), "Parser Error: syntax error at or near") {
		t.Errorf("syntax error: %v", err)
	}
}

// TestGuardMacros: a function the database defines is refused, even
// under a built-in's name, which it would shadow (DuckDB resolves the
// database's macro first, also for the calls its parser writes itself,
// such as list_apply for a list comprehension).
func TestGuardMacros(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.duckdb")
	exec(t, path,
		`CREATE TABLE t (a INTEGER)`,
		`CREATE MACRO lower(x) AS 'shadowed'`,
		`CREATE MACRO list_apply(l, f) AS 'shadowed'`,
		`CREATE MACRO rows_of(n) AS TABLE SELECT * FROM range(n)`,
		`CREATE SCHEMA s`, `CREATE MACRO s.twice(x) AS x * 2`)
	s := open(t, path)
	ctx := context.Background()
	for _, q := range []string{
		`SELECT lower('A')`, `SELECT LOWER('A')`, `SELECT "lower"('A')`, `SELECT main.lower('A')`,
		`SELECT [x FOR x IN [1, 2]]`, `SELECT * FROM rows_of(3)`, `SELECT twice(1)`, `SELECT s.twice(1)`,
	} {
		err := s.Guard(ctx, q)
		if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "defined by this database") {
			t.Errorf("Guard(%q) = %v; want a refusal of the database's macro", q, err)
		}
	}
	if err := s.Guard(ctx, `SELECT upper(a) FROM t`); err != nil {
		t.Errorf("a built-in the database does not shadow: %v", err)
	}
}

// TestGuardInventoryRefresh: Tables refreshes what the guard lets a
// statement read.
func TestGuardInventoryRefresh(t *testing.T) {
	s := open(t, build(t, "shop.duckdb"))
	ctx := context.Background()
	if err := s.Guard(ctx, "SELECT * FROM customer"); err != nil {
		t.Fatal(err)
	}
	first := s.guardInv
	if _, err := s.Tables(ctx); err != nil {
		t.Fatal(err)
	}
	if s.guardInv == first || s.guardInv.rels.Len() != first.rels.Len() || s.guardInv.catalog != "shop" {
		t.Errorf("Tables did not refresh the inventory: %+v", s.guardInv)
	}
}

func TestPivotProbe(t *testing.T) {
	const m = " IN ('" + pivotMarker + "')"
	for q, want := range map[string]string{
		`PIVOT t ON a`:                                 `PIVOT t ON a` + m,
		`PIVOT t ON a USING sum(b)`:                    `PIVOT t ON a` + m + ` USING sum(b)`,
		`PIVOT t ON a, b || c USING sum(b) GROUP BY d`: `PIVOT t ON a` + m + `, b || c` + m + ` USING sum(b) GROUP BY d`,
		`PIVOT t ON a IN ('x'), b`:                     `PIVOT t ON a IN ('x'), b` + m,
		`SELECT * FROM (PIVOT t ON a) p`:               `SELECT * FROM (PIVOT t ON a` + m + `) p`,
		`PIVOT (SELECT * FROM t) ON a;`:                `PIVOT (SELECT * FROM t) ON a` + m + `;`,
		`FROM t PIVOT (sum(b) FOR a IN ('x'))`:         `FROM t PIVOT (sum(b) FOR a IN ('x'))`,
		`PIVOT t ON a -- c`:                            `PIVOT t ON a` + m + ` -- c`,
		`SELECT 1`:                                     `SELECT 1`,
	} {
		got, n := pivotProbe(q)
		if got != want || n != strings.Count(want, pivotMarker) {
			t.Errorf("pivotProbe(%q) = %q, %d; want %q", q, got, n, want)
		}
	}
}

// FuzzDuckDBGuard: whatever the guard accepts calls only listed functions
// and reads only the inventory, a CTE or a listed metadata view. The check
// walks DuckDB's parse generically (every object with a function_name,
// every BASE_TABLE, TABLE_FUNCTION and SHOW_REF, every expression class),
// independently of the guard's typed walk. Seeded with both corpora and
// the experts' statements.
func FuzzDuckDBGuard(f *testing.F) {
	env := newGuardEnv(f)
	src := env.sources()[0] // the file: it has macros, a sequence and a view to trip over
	for _, name := range []string{"harmless.sql", "hostile.sql"} {
		for _, e := range guardcorpus.Read(f, name) {
			f.Add(env.fill(e.SQL, src))
		}
	}
	for _, q := range guardcorpus.ReadStatements(f, "experts.jsonl") {
		f.Add(q)
	}
	ctx := context.Background()
	s, err := Open(ctx, src.dsn)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	inv, err := s.guardInventory(ctx)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if s.Guard(ctx, q) != nil {
			return
		}
		tree, _, err := s.parse(ctx, q)
		if err != nil {
			t.Fatalf("accepted, but the parse fails: %v\n%s", err, q)
		}
		if problems := independentCheck(tree, inv); len(problems) > 0 {
			t.Fatalf("accepted %q, but %s", q, strings.Join(problems, "; "))
		}
	})
}

// knownClasses are the expression classes a read may hold, written out
// here apart from the guard's own list.
var knownClasses = warehouse.WordSet("BETWEEN", "CASE", "CAST", "COLLATE", "COLUMN_REF", "COMPARISON", "CONJUNCTION",
	"CONSTANT", "FUNCTION", "LAMBDA", "OPERATOR", "PARAMETER", "POSITIONAL_REFERENCE", "STAR", "SUBQUERY", "WINDOW")

// independentCheck lists what in tree is not allowed, found by a generic
// walk over every JSON object.
func independentCheck(tree any, inv *guardInventory) []string {
	var problems []string
	ctes := map[string]bool{}
	walkJSON(tree, func(o map[string]any) {
		if m, ok := o["cte_map"].(map[string]any); ok {
			entries, _ := m["map"].([]any)
			for _, e := range entries {
				if eo, ok := e.(map[string]any); ok {
					k, _ := eo["key"].(string)
					ctes[foldASCII(k)] = true
				}
			}
		}
		if o["type"] == "RECURSIVE_CTE_NODE" {
			k, _ := o["cte_name"].(string)
			ctes[foldASCII(k)] = true
		}
	})
	walkJSON(tree, func(o map[string]any) {
		str := func(k string) string { v, _ := o[k].(string); return foldASCII(v) }
		if name, ok := o["function_name"].(string); ok {
			n := foldASCII(name)
			if !allowedScalars[n] && !allowedAggregates[n] && !allowedTableFunctions[n] || inv.user[n] {
				problems = append(problems, "it calls "+name)
			}
			if c := str("catalog"); c != "" && c != "system" || str("schema") == "pg_catalog" {
				problems = append(problems, "it calls a qualified "+name)
			}
		}
		if class, ok := o["class"].(string); ok && !knownClasses[class] {
			problems = append(problems, "it holds a "+class+" expression")
		}
		if v, ok := o["at_clause"]; ok && v != nil {
			problems = append(problems, "it travels in time")
		}
		switch o["type"] {
		case "BASE_TABLE":
			cat, sch, n := str("catalog_name"), str("schema_name"), str("table_name")
			ok := cat == "" && sch == "" && ctes[n] ||
				sch == "information_schema" && (cat == "" || cat == "system") && allowedInfoSchema[n] ||
				(cat == "" || cat == inv.catalog) && (sch == "" || sch == "main") && inv.rels.Has("", n) ||
				(cat == "" || cat == inv.catalog) && inv.rels.Has(sch, n) ||
				cat == "" && sch == inv.catalog && inv.rels.Has("", n)
			if !ok {
				problems = append(problems, fmt.Sprintf("it reads %s.%s.%s", cat, sch, n))
			}
		case "TABLE_FUNCTION":
			fn, _ := o["function"].(map[string]any)
			name, _ := fn["function_name"].(string)
			if !allowedTableFunctions[foldASCII(name)] {
				problems = append(problems, "it reads from the table function "+name)
			}
		case "SHOW_REF":
			if n, _ := o["table_name"].(string); n != "" && !allowedShows[n] {
				problems = append(problems, "it shows "+n)
			}
		}
	})
	return problems
}
