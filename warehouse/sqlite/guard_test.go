package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	msqlite "modernc.org/sqlite"

	"github.com/discover-db/discover/internal/guardcorpus"
	"github.com/discover-db/discover/warehouse"
)

// guardFixture is the database the corpora are written against
// (testdata/guard/fixture.sql): the package's fixture and what the corpora
// need besides: JSON, a hierarchy, an AUTOINCREMENT table
// (sqlite_sequence), statistics (sqlite_stat1), a view over sqlite_schema,
// and views of a hostile file that SQLite itself will not run under
// trusted_schema=0.
var guardFixture = guardcorpus.SQL(guardcorpus.MustRead("fixture.sql"))

func short(q string) string {
	if r := []rune(q); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return q
}

// TestGuardCorpora runs the hostile and the harmless corpus through the
// guard and through Query on a real file: every hostile statement refused,
// every harmless one accepted and run, and the file, and the folder that
// "$DIR" in a statement stands for, left as they were.
func TestGuardCorpora(t *testing.T) {
	path := build(t, "guard.db", guardFixture...)
	side := t.TempDir()
	before, files := digest(t, path), listDir(t, filepath.Dir(path))
	s := open(t, path)
	ctx := context.Background()

	hostile := guardcorpus.Read(t, "hostile.sql")
	if len(hostile) < 300 {
		t.Errorf("%d hostile statements, want at least 300", len(hostile))
	}
	oldAccepted := 0
	for _, e := range hostile {
		q := strings.ReplaceAll(e.SQL, "$DIR", side)
		if Grammar.Check(q) == nil {
			oldAccepted++
		}
		if err := s.Guard(ctx, q); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("guard accepted a hostile statement (%s): %q: %v", e.Comment, short(q), err)
			continue
		}
		if _, err := s.Query(ctx, q, warehouse.QueryOptions{Timeout: 5 * time.Second}); !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("Query(%q) = %v; want ErrRejected", short(q), err)
		}
	}
	t.Logf("old guard accepted %d of %d hostile", oldAccepted, len(hostile))

	harmless := guardcorpus.Read(t, "harmless.sql")
	if len(harmless) < 100 {
		t.Errorf("%d harmless statements, want at least 100", len(harmless))
	}
	oldRefused := 0
	for _, e := range harmless {
		if Grammar.Check(e.SQL) != nil {
			oldRefused++
		}
		if err := s.Guard(ctx, e.SQL); err != nil {
			t.Errorf("guard refused a harmless statement (%s): %q: %v", e.Comment, short(e.SQL), err)
			continue
		}
		if _, err := s.Query(ctx, e.SQL, warehouse.QueryOptions{Timeout: 5 * time.Second}); err != nil {
			t.Errorf("Query(%q): %v", short(e.SQL), err)
		}
	}
	t.Logf("old guard refused %d of %d harmless; the new guard accepts all", oldRefused, len(harmless))

	if n, err := s.RowCount(ctx, warehouse.TableName{Name: "customer"}); err != nil || n != 3 {
		t.Errorf("customer rows after the corpora: %d, %v", n, err)
	}
	s.Close()
	if digest(t, path) != before {
		t.Error("the database file changed")
	}
	if after := listDir(t, filepath.Dir(path)); !slices.Equal(after, files) {
		t.Errorf("files beside the database: %v; before %v", after, files)
	}
	if names := listDir(t, side); len(names) != 0 {
		t.Errorf("hostile statements left %v in $DIR", names)
	}
}

// TestGuardRefusals pins the reason a refusal gives, and the statements
// the guard leaves to the grounding stage or the database.
func TestGuardRefusals(t *testing.T) {
	s := open(t, build(t, "guard.db", guardFixture...))
	ctx := context.Background()
	for _, c := range []struct{ sql, want string }{
		{`SELECT load_extension('x')`, "function load_extension is not on the list"},
		{`SELECT "LOAD_EXTENSION"('x')`, "function load_extension is not on the list"},
		{`SELECT writefile('x', 'y')`, "function writefile is not on the list"},
		{`SELECT * FROM sqlite_master`, `"sqlite_master" is not a table or view of this database`},
		{`SELECT * FROM temp.sqlite_master`, "only the main database may be read"},
		{`ATTACH 'x.db' AS x`, "ATTACH is not allowed"},
		{`PRAGMA user_version = 1`, "PRAGMA user_version with a value sets it"},
		{`PRAGMA user_version('')`, "PRAGMA user_version with a value sets it"},
		{`PRAGMA writable_schema = 1`, "PRAGMA writable_schema is not on the list"},
		{`SELECT 1; DELETE FROM customer`, `more than one statement: "DELETE FROM customer" follows the first`},
		{`VACUUM INTO 'x.db'`, "would write to the database"},
		{`DELETE FROM customer`, "DELETE is not allowed"},
		{`-- nothing`, "no statement"},
		{`SELEC 1`, "does not compile"},
	} {
		err := s.Guard(ctx, c.sql)
		if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Guard(%q) = %v; want a refusal saying %q", c.sql, err, c.want)
		}
	}
	// What a view of the file reads, a statement may count, spelling the
	// schema as a flattened view does; on a file without such a view, not.
	if err := s.Guard(ctx, `SELECT count(*) FROM main.sqlite_master`); err != nil {
		t.Errorf("count of a table a view reads: %v", err)
	}
	plain := open(t, build(t, "plain.db", "CREATE TABLE a (x)"))
	if err := plain.Guard(ctx, `SELECT count(*) FROM main.sqlite_master`); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("count of sqlite_master with no view reading it: %v; want a refusal", err)
	}
	// A column its table lacks is for grounding to name; Query does not run
	// the statement and reports the database's error.
	if err := s.Guard(ctx, `SELECT nosuch FROM orders`); err != nil {
		t.Errorf("Guard(nosuch column) = %v; want nil", err)
	}
	_, err := s.Query(ctx, `SELECT nosuch FROM orders`, warehouse.QueryOptions{})
	if err == nil || errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "no such column: nosuch") {
		t.Errorf("Query(nosuch column) = %v; want the database's error", err)
	}
}

// hugeAndDeep are the statements TestGuardHugeAndDeep and
// BenchmarkBarGuardHugeAndDeep give the guard on guardFixture: a 10 MB
// statement and 100,000-deep nesting, with brackets or without. Each must
// end in a refusal.
func hugeAndDeep() []struct{ name, sql string } {
	const deep = 100000
	return []struct{ name, sql string }{
		{"10 MB", "SELECT '" + strings.Repeat("x", 10<<20) + "'"},
		{"10 MB of comment", "SELECT 1 /*" + strings.Repeat(" ", 10<<20) + "*/"},
		{"100,000 parentheses", "SELECT " + strings.Repeat("(", deep) + "1" + strings.Repeat(")", deep)},
		{"100,000 subqueries", "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", deep) + "customer" + strings.Repeat(")", deep)},
		{"100,000 NOT", "SELECT " + strings.Repeat("NOT ", deep) + "1"},
		{"100,000 unary minus", "SELECT " + strings.Repeat("- ", deep) + "1"},
		{"100,000 additions", "SELECT " + strings.Repeat("1+", deep) + "1"},
		{"100,000 CASE", "SELECT " + strings.Repeat("CASE WHEN 1 THEN ", deep/10) + "1" + strings.Repeat(" END", deep/10)},
		{"100,000 UNION", "SELECT 1" + strings.Repeat(" UNION SELECT 1", deep)},
	}
}

// TestGuardHugeAndDeep: the statements of hugeAndDeep end in a refusal (how
// quickly is BenchmarkBarGuardHugeAndDeep's bar; the test only logs it).
func TestGuardHugeAndDeep(t *testing.T) {
	s := open(t, build(t, "guard.db", guardFixture...))
	ctx := context.Background()
	for _, c := range hugeAndDeep() {
		start := time.Now()
		err := s.Guard(ctx, c.sql)
		took := time.Since(start)
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("%s: %v; want a refusal", c.name, err)
		}
		t.Logf("%s: %s: %.80s", c.name, took, err)
	}
}

// TestGuardFollowsListing: a table a writer creates is not readable until
// Tables lists it (the guard's inventory is the latest listing).
func TestGuardFollowsListing(t *testing.T) {
	path := build(t, "guard.db", "CREATE TABLE a (x)")
	s := open(t, path)
	ctx := context.Background()
	if err := s.Guard(ctx, "SELECT x FROM a"); err != nil {
		t.Fatal(err)
	}
	w, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec("CREATE TABLE b (y)"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := s.Guard(ctx, "SELECT y FROM b"); !errors.Is(err, warehouse.ErrRejected) {
		t.Errorf("before the listing: %v; want a refusal", err)
	}
	if _, err := s.Tables(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Guard(ctx, "SELECT y FROM b"); err != nil {
		t.Errorf("after the listing: %v", err)
	}
}

// TestGuardRegisteredFunction: a function a program registers with the
// driver is on no list; the pool's connections have it, the guard refuses
// it.
func TestGuardRegisteredFunction(t *testing.T) {
	registerTestUDF(t)
	path := build(t, "guard.db", "CREATE TABLE a (x)")
	s := open(t, path)
	if _, err := s.db.Exec("SELECT discover_test_udf(1)"); err != nil {
		t.Fatalf("the pool lacks the registered function: %v", err)
	}
	for _, q := range []string{"SELECT discover_test_udf(1)", "SELECT x FROM a WHERE DISCOVER_TEST_UDF(x)"} {
		if _, err := s.Query(context.Background(), q, warehouse.QueryOptions{}); !errors.Is(err, warehouse.ErrRejected) ||
			!strings.Contains(err.Error(), "not on the list") {
			t.Errorf("Query(%q) = %v; want a refusal", q, err)
		}
	}
}

var udfRegistered bool

func registerTestUDF(t *testing.T) {
	if udfRegistered {
		return
	}
	udfRegistered = true
	if err := msqlite.RegisterDeterministicScalarFunction("discover_test_udf", 1,
		func(*msqlite.FunctionContext, []driver.Value) (driver.Value, error) { return int64(1), nil }); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkGuard is the guard's cost per statement, to set against the
// statement's own run (BenchmarkGuardedQuery).
func BenchmarkGuard(b *testing.B) {
	s, q := benchSource(b)
	ctx := context.Background()
	for b.Loop() {
		if err := s.Guard(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGuardedQuery(b *testing.B) {
	s, q := benchSource(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Query(ctx, q, warehouse.QueryOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSource(b *testing.B) (*Source, string) {
	path := build(b, "bench.db", guardFixture...)
	s, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, `SELECT COUNT(*) AS row_count, COUNT("name") AS c_name_non_null, COUNT(DISTINCT "name") AS c_name_distinct,
		MIN(length(CAST("email" AS TEXT))) AS l, MAX(CASE WHEN typeof("id") IN ('integer','real') THEN CAST("id" AS REAL) END) AS m
		FROM "customer"`
}

// A compound SELECT is refused before SQLite parses it when it has more
// terms than SQLite would compile, and judged as usual below that.
func TestGuardCompoundLimit(t *testing.T) {
	s := open(t, build(t, "guard.db", "CREATE TABLE a (x)"))
	ctx := context.Background()
	if err := s.Guard(ctx, "SELECT x FROM a"+strings.Repeat(" UNION ALL SELECT x FROM a", 400)); err != nil {
		t.Errorf("400 terms: %v", err)
	}
	err := s.Guard(ctx, "SELECT x FROM a"+strings.Repeat(" union all select x from a", 600))
	if !errors.Is(err, warehouse.ErrRejected) || !strings.Contains(err.Error(), "600 UNION") {
		t.Errorf("600 terms: %v", err)
	}
	if n := compoundTerms(strings.Repeat("SELECT 'reunion' AS unions, except_x ", 500)); n != 0 {
		t.Errorf("words containing the keywords counted: %d", n)
	}
}
