package warehouse_test

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// rowidFixture is a SQLite table of 200,000 rowids of which every fifth is
// deleted and one run of 20,000 is gone entirely, so rowids are used
// unevenly: 144,000 rows between rowid 1 and 200,000. v is rowid mod 100;
// half the rows have a NULL w.
func rowidFixture(t *testing.T) (*sql.Conn, warehouse.Dialect) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "rowid.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn := pin(t, db)
	mustExec(t, conn,
		`CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER, w TEXT)`,
		`INSERT INTO big WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200000)
			SELECT i, i % 100, CASE WHEN i % 2 = 0 THEN 'x' END FROM r`,
		`DELETE FROM big WHERE id % 5 = 0 OR id BETWEEN 50001 AND 70000`,
		`CREATE TABLE small (a)`,
		`INSERT INTO small VALUES (1), (2), (3)`,
		`CREATE TABLE empty (a)`,
		`CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO kv VALUES ('a', 1)`,
		`CREATE VIEW bigv AS SELECT * FROM big`,
		`CREATE VIRTUAL TABLE docs USING fts5(body)`,
		`INSERT INTO docs VALUES ('hello')`,
		`CREATE TABLE shadowed (rowid TEXT, oid TEXT, x)`,
		`INSERT INTO shadowed VALUES ('a', 'b', 1)`,
	)
	return conn, mustDialect(t, "sqlite")
}

const rowidFixtureRows = 144000

func bounds(t *testing.T, conn *sql.Conn, d warehouse.Dialect, name, rowid string) (lo, hi sql.NullInt64, err error) {
	t.Helper()
	q, ok := warehouse.RowidBounds(d, warehouse.TableName{Name: name}, rowid)
	if !ok {
		t.Fatal("RowidBounds not ok on sqlite")
	}
	if err := sqlite.Grammar.Check(q); err != nil {
		t.Fatalf("guard refuses %s: %v", q, err)
	}
	err = conn.QueryRowContext(context.Background(), q).Scan(&lo, &hi)
	return lo, hi, err
}

// plan is the EXPLAIN QUERY PLAN of q, one detail per line.
func plan(t *testing.T, conn *sql.Conn, q string) string {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, detail)
	}
	return strings.Join(lines, "\n")
}

// scans reports whether a plan scans one of the named tables or aliases
// (SCAN x, or SCAN x USING … INDEX): a read of every row.
func scans(p string, names ...string) bool {
	for _, line := range strings.Split(p, "\n") {
		for _, n := range names {
			if line == "SCAN "+n || strings.HasPrefix(line, "SCAN "+n+" ") {
				return true
			}
		}
	}
	return false
}

// TestRowidBounds: the ends of the rowid b-tree, found by two searches; no
// bounds for what has no plain rowid b-tree.
func TestRowidBounds(t *testing.T) {
	conn, d := rowidFixture(t)
	lo, hi, err := bounds(t, conn, d, "big", "rowid")
	if err != nil || lo.Int64 != 1 || hi.Int64 != 199999 {
		t.Errorf("big: bounds %v..%v, %v; want 1..199999", lo, hi, err)
	}
	q, _ := warehouse.RowidBounds(d, warehouse.TableName{Name: "big"}, "rowid")
	if p := plan(t, conn, q); scans(p, "t", "big") {
		t.Errorf("bounds scan the table:\n%s", p)
	}
	if lo, hi, err := bounds(t, conn, d, "empty", "rowid"); err != nil || lo.Valid || hi.Valid {
		t.Errorf("empty: %v..%v, %v; want NULLs", lo, hi, err)
	}
	if _, _, err := bounds(t, conn, d, "kv", "rowid"); err == nil {
		t.Error("WITHOUT ROWID table: bounds found")
	}
	// A view has no rowid (an error); a virtual table has one, maybe
	// without a b-tree behind it (no row).
	if _, _, err := bounds(t, conn, d, "bigv", "rowid"); err == nil {
		t.Error("view: bounds found")
	}
	if _, _, err := bounds(t, conn, d, "docs", "rowid"); err != sql.ErrNoRows {
		t.Errorf("virtual table: err %v, want no row", err)
	}
	cols := []warehouse.Column{{Name: "ROWID"}, {Name: "oid"}, {Name: "x"}}
	if r, ok := sqlite.RowidName(cols); !ok || r != "_rowid_" {
		t.Errorf("RowidName = %q, %v; want _rowid_", r, ok)
	}
	if _, ok := sqlite.RowidName(append(cols, warehouse.Column{Name: "_Rowid_"})); ok {
		t.Error("RowidName found a spelling every column hides")
	}
	if lo, hi, err := bounds(t, conn, d, "shadowed", "_rowid_"); err != nil || lo.Int64 != 1 || hi.Int64 != 1 {
		t.Errorf("shadowed: %v..%v, %v", lo, hi, err)
	}
	for _, name := range []string{"postgres", "mysql", "duckdb", "trino"} {
		other := mustDialect(t, name)
		if _, ok := warehouse.RowidBounds(other, warehouse.TableName{Name: "big"}, "rowid"); ok {
			t.Errorf("%s: RowidBounds ok", name)
		}
		if _, _, ok := other.RowidProbe(warehouse.TableName{Name: "big"}, "rowid", 1, 1e6); ok {
			t.Errorf("%s: RowidProbe ok", name)
		}
		if _, ok := other.SampleRowids(warehouse.TableName{Name: "big"}, "rowid", 100, 1e6, 1, 1e6); ok {
			t.Errorf("%s: SampleRowids ok", name)
		}
	}
}

// TestRowidProbe: the rowid windows estimate the row count within a few
// percent, by range searches only, and count a small table exactly.
func TestRowidProbe(t *testing.T) {
	conn, d := rowidFixture(t)
	big := warehouse.TableName{Name: "big"}
	q, covered, ok := d.RowidProbe(big, "rowid", 1, 199999)
	if !ok {
		t.Fatal("no probe")
	}
	if err := sqlite.Grammar.Check(q); err != nil {
		t.Fatalf("guard: %v", err)
	}
	if p := plan(t, conn, q); scans(p, "t", "big") || !strings.Contains(p, "SEARCH t USING INTEGER PRIMARY KEY") {
		t.Errorf("probe plan:\n%s", p)
	}
	var n int64
	if err := conn.QueryRowContext(context.Background(), q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	est, exact := warehouse.RowidEstimate(1, 199999, covered, n)
	t.Logf("probe: %d of %d rowids in use: estimate %d rows, true %d (%.2f%%)", n, covered, est, rowidFixtureRows,
		100*(float64(est)/rowidFixtureRows-1))
	if exact || math.Abs(float64(est)/rowidFixtureRows-1) > 0.08 {
		t.Errorf("estimate %d (exact %v), want %d within 8%%", est, exact, rowidFixtureRows)
	}
	q2, _, _ := d.RowidProbe(big, "rowid", 1, 199999)
	if q2 != q {
		t.Error("probe differs between calls: not seeded")
	}

	q, covered, _ = d.RowidProbe(warehouse.TableName{Name: "small"}, "rowid", 1, 3)
	if err := conn.QueryRowContext(context.Background(), q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if est, exact := warehouse.RowidEstimate(1, 3, covered, n); !exact || est != 3 {
		t.Errorf("small: %d (exact %v), want exactly 3", est, exact)
	}
	if _, _, ok := d.RowidProbe(big, "rowid", math.MinInt64, math.MaxInt64); ok {
		t.Error("probe over the whole int64 range")
	}
}

// TestSampleRowids: the sample holds the rows asked for, drawn by rowid
// lookups (no scan), the same rows in every statement, spread over the
// whole table: its figures match the table's.
func TestSampleRowids(t *testing.T) {
	conn, d := rowidFixture(t)
	ctx := context.Background()
	big := warehouse.TableName{Name: "big"}
	from, ok := d.SampleRowids(big, "rowid", 2000, rowidFixtureRows, 1, 199999)
	if !ok {
		t.Fatal("no rowid sample")
	}
	q := "SELECT COUNT(*), SUM(s.id), AVG(v), AVG(w IS NULL), MIN(id), MAX(id), COUNT(DISTINCT id) FROM " + from
	if err := sqlite.Grammar.Check(q); err != nil {
		t.Fatalf("guard refuses the sample: %v\n%s", err, q)
	}
	if p := plan(t, conn, q); scans(p, "b", "big") ||
		!strings.Contains(p, "SEARCH b USING INTEGER PRIMARY KEY (rowid=?)") {
		t.Errorf("sample plan:\n%s", p)
	}
	var n, sum, lo, hi, distinct int64
	var avgV, nullW float64
	if err := conn.QueryRowContext(ctx, q).Scan(&n, &sum, &avgV, &nullW, &lo, &hi, &distinct); err != nil {
		t.Fatal(err)
	}
	t.Logf("sample: %d rows, ids %d..%d, mean v %.2f (table 49.5), NULL w %.3f (table 0.5)", n, lo, hi, avgV, nullW)
	if n != 2000 || distinct != n {
		t.Errorf("%d rows, %d distinct; want 2000 distinct", n, distinct)
	}
	// v is uniform on 0..99 (σ of a mean of 2000: 0.65); w NULL on half
	// (σ 0.011); the ids reach both ends.
	if math.Abs(avgV-49.5) > 3 || math.Abs(nullW-0.5) > 0.05 || lo > 1000 || hi < 199000 {
		t.Errorf("sample does not look uniform: mean v %.2f, NULL share %.3f, ids %d..%d", avgV, nullW, lo, hi)
	}
	// No row of the deleted run.
	var gap int64
	if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+from+" WHERE id BETWEEN 50001 AND 70000").Scan(&gap); err != nil || gap != 0 {
		t.Errorf("%d rows from the deleted run (%v)", gap, err)
	}
	var sum2 int64
	if err := conn.QueryRowContext(ctx, "SELECT SUM(id) FROM "+from).Scan(&sum2); err != nil || sum2 != sum {
		t.Errorf("second statement drew other rows: sum %d, then %d (%v)", sum, sum2, err)
	}
	other, _ := d.SampleRowids(warehouse.TableName{Name: "other"}, "rowid", 2000, rowidFixtureRows, 1, 199999)
	if strings.ReplaceAll(other, `"other"`, `"big"`) == from {
		t.Error("two tables draw the same rowids: the seed ignores the name")
	}
	// An understated row count still yields the sample asked for (from
	// more draws); an overstated one a smaller sample.
	for _, c := range []struct {
		total    int64
		min, max int64
	}{{100000, 2000, 2000}, {199999, 1300, 2000}} {
		from, ok := d.SampleRowids(big, "rowid", 2000, c.total, 1, 199999)
		if !ok {
			t.Fatalf("total %d: no sample", c.total)
		}
		if err := conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+from).Scan(&n); err != nil || n < c.min || n > c.max {
			t.Errorf("told %d rows: sample of %d (%v), want %d..%d", c.total, n, err, c.min, c.max)
		}
	}
	// Sparse rowids take more draws.
	if dense, _ := warehouse.RowidDraws(2000, 199999, 1, 199999); dense < 2400 || dense > 2700 {
		t.Errorf("%d draws for 2000 rows of a table using every rowid", dense)
	}
	if sparse, _ := warehouse.RowidDraws(2000, 20000, 1, 199999); sparse < 26000 || sparse > 29000 {
		t.Errorf("%d draws for 2000 rows of a table using 1 rowid in 10", sparse)
	}
	// No rowid sample of what the sample nearly is, or of a span beyond 2⁴⁰.
	for _, c := range []struct{ rows, total, hi int64 }{
		{2000, 2100, 199999},     // the sample is nearly the table
		{2000, 1 << 30, 1 << 50}, // beyond maxRowidSpan
		{2000, 1000, 199999},     // the table is within the sample
	} {
		if from, ok := d.SampleRowids(big, "rowid", c.rows, c.total, 1, c.hi); ok {
			t.Errorf("%+v: rowid sample %s", c, from)
		}
	}
}

// TestIntKey: a WITHOUT ROWID table whose primary key is one INTEGER
// column is keyed by it as a rowid table is by rowid: FindIntKey finds its
// ends by two searches, and the probe and the sample read it by key
// searches only, with the figures of the table. A key that holds text at
// one end, a key of another type, a composite key, a view and a virtual
// table have no integer key; a rowid table keeps its rowid.
func TestIntKey(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "intkey.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn := pin(t, db)
	ctx := context.Background()
	// wk: 30,000 keys, every fifth deleted and one run of 3,000 gone
	// (21,600 rows, rowidFixture's big at 3/20); v is k mod 100, w NULL
	// on odd keys.
	mustExec(t, conn,
		`CREATE TABLE wk (k BIGINT PRIMARY KEY, v INTEGER, w TEXT) WITHOUT ROWID`,
		`INSERT INTO wk WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 30000)
			SELECT i, i % 100, CASE WHEN i % 2 = 0 THEN 'x' END FROM r`,
		`DELETE FROM wk WHERE k % 5 = 0 OR k BETWEEN 7501 AND 10500`,
		`CREATE TABLE wtext (k INTEGER PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO wtext VALUES (1, 1), (2, 2), ('three', 3)`,
		`CREATE TABLE wreal (k INTEGER PRIMARY KEY, v) WITHOUT ROWID`,
		`INSERT INTO wreal VALUES (1.5, 1), (2, 2)`,
		`CREATE TABLE wempty (k INTEGER PRIMARY KEY) WITHOUT ROWID`,
		`CREATE TABLE wname (k TEXT PRIMARY KEY) WITHOUT ROWID`,
		`INSERT INTO wname VALUES ('a')`,
		`CREATE TABLE wpair (a INTEGER, b INTEGER, PRIMARY KEY (a, b)) WITHOUT ROWID`,
		`INSERT INTO wpair VALUES (1, 1)`,
		`CREATE TABLE plain (id INTEGER PRIMARY KEY, v)`,
		`INSERT INTO plain VALUES (7, 1), (9, 2)`,
		`CREATE VIEW wkv AS SELECT * FROM wk`,
		`CREATE VIRTUAL TABLE docs USING fts5(body)`,
		`INSERT INTO docs VALUES ('hello')`,
	)
	d := mustDialect(t, "sqlite")
	var stmts []string
	find := func(tab warehouse.Table) (warehouse.IntKey, int64, int64, bool, bool) {
		t.Helper()
		k, lo, hi, rows, found, err := warehouse.FindIntKey(d, tab, func(q string) ([]any, error) {
			stmts = append(stmts, q)
			if err := sqlite.Grammar.Check(q); err != nil {
				t.Fatalf("guard refuses %s: %v", q, err)
			}
			var a, b any
			if err := conn.QueryRowContext(ctx, q).Scan(&a, &b); err != nil {
				return nil, nil
			}
			return []any{a, b}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return k, lo, hi, rows, found
	}
	table := func(name, kind string, pk []string, cols ...string) warehouse.Table {
		tab := warehouse.Table{Name: warehouse.TableName{Name: name}, Kind: kind, PrimaryKey: pk}
		for _, c := range cols {
			n, typ, _ := strings.Cut(c, " ")
			tab.Columns = append(tab.Columns, warehouse.Column{Name: n, Type: typ})
		}
		return tab
	}
	wk := table("wk", "table", []string{"k"}, "k BIGINT", "v INTEGER", "w TEXT")
	k, lo, hi, rows, found := find(wk)
	if !found || !rows || k.Rowid() || k.Column != "k" || k.Name != `"k"` || lo != 1 || hi != 29999 {
		t.Fatalf("wk: key %+v %d..%d (rows %v, found %v), want k 1..29999", k, lo, hi, rows, found)
	}
	if k.String() != "integer key k" {
		t.Errorf("key named %q", k.String())
	}
	// The rowid's statement fails first (no such column), then the key's.
	if len(stmts) != 2 || !strings.Contains(stmts[0], "t.rowid") {
		t.Errorf("statements %q", stmts)
	}
	if p := plan(t, conn, stmts[1]); scans(p, "t", "wk") || !strings.Contains(p, "SEARCH t") {
		t.Errorf("bounds scan the table:\n%s", p)
	}
	q, covered, ok := d.RowidProbe(wk.Name, k.Name, lo, hi)
	if !ok {
		t.Fatal("no probe")
	}
	if p := plan(t, conn, q); scans(p, "t", "wk") || !strings.Contains(p, "SEARCH t USING PRIMARY KEY") {
		t.Errorf("probe plan:\n%s", p)
	}
	var n int64
	if err := conn.QueryRowContext(ctx, q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	const wkRows = 21600
	est, exact := warehouse.RowidEstimate(lo, hi, covered, n)
	t.Logf("wk probe: %d of %d keys in use: estimate %d rows, true %d (%.2f%%)", n, covered, est, wkRows,
		100*(float64(est)/wkRows-1))
	if exact || math.Abs(float64(est)/wkRows-1) > 0.08 {
		t.Errorf("estimate %d (exact %v), want %d within 8%%", est, exact, wkRows)
	}
	from, ok := d.SampleRowids(wk.Name, k.Name, 2000, est, lo, hi)
	if !ok {
		t.Fatal("no sample by key")
	}
	q = "SELECT COUNT(*), COUNT(DISTINCT k), AVG(v), AVG(w IS NULL), MIN(k), MAX(k) FROM " + from
	if err := sqlite.Grammar.Check(q); err != nil {
		t.Fatalf("guard refuses the sample: %v", err)
	}
	if p := plan(t, conn, q); scans(p, "b", "wk") || !strings.Contains(p, "SEARCH b USING PRIMARY KEY (k=?)") {
		t.Errorf("sample plan:\n%s", p)
	}
	var distinct, min, max int64
	var avgV, nullW float64
	if err := conn.QueryRowContext(ctx, q).Scan(&n, &distinct, &avgV, &nullW, &min, &max); err != nil {
		t.Fatal(err)
	}
	t.Logf("wk sample: %d rows, keys %d..%d, mean v %.2f (table 49.5), NULL w %.3f (table 0.5)", n, min, max, avgV, nullW)
	if n < 1900 || n > 2000 || distinct != n || math.Abs(avgV-49.5) > 3 || math.Abs(nullW-0.5) > 0.05 || min > 1000 || max < 29000 {
		t.Errorf("sample of %d rows (%d distinct), mean v %.2f, NULL share %.3f, keys %d..%d", n, distinct, avgV, nullW, min, max)
	}

	plain := table("plain", "table", []string{"id"}, "id INTEGER", "v")
	if k, lo, hi, rows, found := find(plain); !found || !rows || !k.Rowid() || k.Name != "rowid" || lo != 7 || hi != 9 {
		t.Errorf("plain: key %+v %d..%d (rows %v, found %v), want rowid 7..9", k, lo, hi, rows, found)
	}
	if k, _, _, rows, found := find(table("wempty", "table", []string{"k"}, "k INTEGER")); !found || rows || k.Column != "k" {
		t.Errorf("wempty: key %+v (rows %v, found %v), want k with no rows", k, rows, found)
	}
	for _, tab := range []warehouse.Table{
		table("wtext", "table", []string{"k"}, "k INTEGER", "v"),              // text at the top end
		table("wreal", "table", []string{"k"}, "k INTEGER", "v"),              // a real at the bottom
		table("wname", "table", []string{"k"}, "k TEXT"),                      // not an integer key
		table("wpair", "table", []string{"a", "b"}, "a INTEGER", "b INTEGER"), // two columns
		table("wkv", "view", nil, "k BIGINT", "v INTEGER", "w TEXT"),
		table("docs", "table", nil, "body"),
	} {
		if k, lo, hi, _, found := find(tab); found {
			t.Errorf("%s: integer key %+v %d..%d, want none", tab.Name.Name, k, lo, hi)
		}
	}
	if keys := mustDialect(t, "postgres").IntKeys(wk); len(keys) != 0 {
		t.Errorf("postgres: integer keys %v", keys)
	}
}
