package statistical

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/connect"

	_ "modernc.org/sqlite"
)

func mustDialect(name string) warehouse.Dialect {
	d, err := connect.DialectFor(name)
	if err != nil {
		panic(err)
	}
	return d
}

var sqliteDialect = mustDialect("sqlite")

func TestProfileSQL(t *testing.T) {
	cols := []colSpec{
		{Index: 0, Name: "id", Numeric: true},
		{Index: 1, Name: "we\"ird name"},
		{Index: 2, Name: "img", Blob: true},
		{Index: 3, Name: "flag", Bool: true},
		{Index: 4, Name: "j", CountOnly: true},
	}
	got := profileSQL(sqliteDialect, `"t"`, cols)
	want := `SELECT COUNT(*) AS n, COUNT("id") AS c0_nn, COUNT(DISTINCT "id") AS c0_dc, MIN("id") AS c0_mn, MAX("id") AS c0_mx, ` +
		`AVG(CASE WHEN typeof("id") IN ('integer','real') THEN CAST("id" AS REAL) END) AS c0_av, ` +
		`AVG((CASE WHEN typeof("id") IN ('integer','real') THEN CAST("id" AS REAL) END) * (CASE WHEN typeof("id") IN ('integer','real') THEN CAST("id" AS REAL) END)) AS c0_sq, ` +
		`COUNT("we""ird name") AS c1_nn, COUNT(DISTINCT "we""ird name") AS c1_dc, MIN("we""ird name") AS c1_mn, MAX("we""ird name") AS c1_mx, ` +
		`COUNT("img") AS c2_nn, ` +
		`COUNT("flag") AS c3_nn, COUNT(DISTINCT "flag") AS c3_dc, ` +
		`COUNT("j") AS c4_nn FROM "t"`
	if got != want {
		t.Errorf("profileSQL:\n got %s\nwant %s", got, want)
	}
	pg := mustDialect("postgres")
	if s := profileSQL(pg, `"t"`, cols[:1]); !strings.Contains(s, `AVG(CAST("id" AS DOUBLE PRECISION))`) {
		t.Errorf("postgres numeric: %s", s)
	}
	if s := boundedCountSQL(sqliteDialect, `"t"`, 101); s != `SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM "t" LIMIT 101) c` {
		t.Errorf("count: %s", s)
	}
}

// TestProfileSQLQuantilesDuckDB: a measure's four percentiles are one
// aggregate on DuckDB, exact whether or not the spec asks for a sketch:
// DuckDB's t-digest gives other figures with other threads
// (Dialect.ApproxQuantiles), and a profile's sample is small enough to
// sort. Both land on 1 … 1000's percentiles exactly.
func TestProfileSQLQuantilesDuckDB(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t AS SELECT CAST(i AS BIGINT) AS x FROM range(1, 1001) r(i)`); err != nil {
		t.Fatal(err)
	}
	d := mustDialect("duckdb")
	want := []float64{250.75, 500.5, 750.25, 950.05} // quantile_cont over 1 … 1000
	for _, approx := range []bool{false, true} {
		c := colSpec{Index: 0, Name: "x", Numeric: true, Measure: true, Quantiles: true, ApproxQuantiles: approx}
		q := profileSQL(d, `"t"`, []colSpec{c})
		// One fragment per point, all of them elements of one list aggregate.
		if n := strings.Count(q, "quantile_cont("); n != len(aggregatePoints) || strings.Contains(q, "approx_quantile") {
			t.Errorf("approx %v: %d quantile_cont in %s", approx, n, q)
		}
		rows, err := db.Query("SELECT c0_q0, c0_q1, c0_q2, c0_q3 FROM (" + q + ")")
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, 4)
		for rows.Next() {
			if err := rows.Scan(&got[0], &got[1], &got[2], &got[3]); err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
		for i := range want {
			if off := math.Abs(got[i] - want[i]); off > 1e-9 {
				t.Errorf("approx %v: p%v = %v, want %v", approx, quantilePoints[i]*100, got[i], want[i])
			}
		}
		// The histogram's deciles: 1 + p·999.
		for i, pt := range decilePoints {
			var v float64
			alias := fmt.Sprintf("c0_q%d", len(quantilePoints)+i)
			if err := db.QueryRow("SELECT " + alias + " FROM (" + q + ")").Scan(&v); err != nil {
				t.Fatal(err)
			}
			if off := math.Abs(v - (1 + pt*999)); off > 1e-9 && !approx || off > 5 {
				t.Errorf("approx %v: decile %v = %v, want %v", approx, pt, v, 1+pt*999)
			}
		}
	}
}

func TestTopValuesSQL(t *testing.T) {
	got := topValuesSQL(sqliteDialect, `"t"`, []colSpec{{Index: 2, Name: "a"}, {Index: 5, Name: "b"}})
	want := `SELECT k, v, n FROM (SELECT 2 AS k, CAST("a" AS TEXT) AS v, COUNT(*) AS n FROM "t" WHERE "a" IS NOT NULL GROUP BY "a" ORDER BY 3 DESC, 2 LIMIT 50) t0` +
		` UNION ALL SELECT k, v, n FROM (SELECT 5 AS k, CAST("b" AS TEXT) AS v, COUNT(*) AS n FROM "t" WHERE "b" IS NOT NULL GROUP BY "b" ORDER BY 3 DESC, 2 LIMIT 50) t1`
	if got != want {
		t.Errorf("topValuesSQL:\n got %s\nwant %s", got, want)
	}
}

// TestSQLRunsOnSQLite checks that the builders' SQL is valid and computes the
// right figures on a real engine, mixed storage classes included.
func TestSQLRunsOnSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, s := range []string{
		`CREATE TABLE t (n NUMERIC, s TEXT, u)`,
		`INSERT INTO t VALUES (1,'a',1),(2,'a','x'),(3,'b',3),(NULL,NULL,NULL),('oops','c',5)`,
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	cols := []colSpec{{Index: 0, Name: "n", Numeric: true}, {Index: 1, Name: "s"}, {Index: 2, Name: "u", Numeric: true}}
	var n, nn0, dc0, nn1, dc1, nn2, dc2 int64
	var mn0, mx0, mn1, mx1, mn2, mx2 any
	var av0, sq0, av2, sq2 float64
	row := db.QueryRowContext(ctx, profileSQL(sqliteDialect, sqliteDialect.SampleFrom(`"t"`, 1000, 5), cols))
	if err := row.Scan(&n, &nn0, &dc0, &mn0, &mx0, &av0, &sq0, &nn1, &dc1, &mn1, &mx1, &nn2, &dc2, &mn2, &mx2, &av2, &sq2); err != nil {
		t.Fatal(err)
	}
	if n != 5 || nn0 != 4 || dc0 != 4 || nn1 != 4 || dc1 != 3 || nn2 != 4 {
		t.Errorf("counts: n=%d nn0=%d dc0=%d nn1=%d dc1=%d nn2=%d", n, nn0, dc0, nn1, dc1, nn2)
	}
	// The text value 'oops' is kept out of the mean: (1+2+3)/3.
	if av0 != 2 || math.Abs(stddev(av0, sq0)-math.Sqrt(2.0/3)) > 1e-12 {
		t.Errorf("mean %v stddev %v", av0, stddev(av0, sq0))
	}
	if av2 != 3 {
		t.Errorf("untyped mean %v", av2)
	}
	rows, err := db.QueryContext(ctx, topValuesSQL(sqliteDialect, `"t"`, cols[1:2]))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var k, c int64
		var v string
		if err := rows.Scan(&k, &v, &c); err != nil {
			t.Fatal(err)
		}
		got = append(got, v+"="+string(rune('0'+c)))
	}
	if strings.Join(got, ",") != "a=2,b=1,c=1" {
		t.Errorf("top values: %v", got)
	}
}

func TestTypes(t *testing.T) {
	num := []string{"INTEGER", "int", "BIGINT", "REAL", "NUMERIC(10,2)", "DECIMAL", "FLOAT", "DOUBLE PRECISION", "", "tinyint"}
	not := []string{"TEXT", "VARCHAR(20)", "DATETIME", "BLOB", "INTERVAL", "POINT", "BOOLEAN", "date",
		// Enumerations and sets: ENUM holds NUM, a label may hold INT.
		"enum('G','PG','PG-13','R','NC-17')", "ENUM('new', 'paid')", "enum('PRINT','DOUBLE')", "set('a','b')"}
	for _, s := range num {
		if !isNumericType(s) {
			t.Errorf("%q should be numeric", s)
		}
	}
	for _, s := range not {
		if isNumericType(s) && s != "BOOLEAN" {
			t.Errorf("%q should not be numeric", s)
		}
	}
	for _, s := range []string{"BLOB", "bytea", "VARBINARY(16)", "image"} {
		if !isBlobType(s) {
			t.Errorf("%q should be a blob", s)
		}
	}
	if !isBoolType("boolean") || !isBoolType("BOOL") || isBoolType("INTEGER") {
		t.Error("isBoolType")
	}
}

func TestChunks(t *testing.T) {
	cols := make([]colSpec, 120)
	got := chunks(cols, 50)
	if len(got) != 3 || len(got[0]) != 50 || len(got[2]) != 20 {
		t.Errorf("chunks: %d", len(got))
	}
	if len(chunks[colSpec](nil, 50)) != 0 {
		t.Error("chunks of nothing")
	}
}

func TestStddev(t *testing.T) {
	cases := []struct{ mean, sq, want float64 }{
		{2, 14.0 / 3, math.Sqrt(2.0 / 3)},
		{0.1, 0.01, 0},                 // float error makes the variance negative
		{1e9, 1e18 + 1e-3, 0},          // noise far below the precision of E[x²]
		{5, 25, 0},                     // constant
		{0, 4, 2},                      // ±2
		{-3, 9 + 0.25, math.Sqrt(.25)}, // negative mean
	}
	for _, c := range cases {
		if got := stddev(c.mean, c.sq); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("stddev(%v, %v) = %v, want %v", c.mean, c.sq, got, c.want)
		}
	}
}

func TestRender(t *testing.T) {
	cases := []struct {
		in   any
		want string
		ok   bool
	}{
		{nil, "", false}, {"x", "x", true}, {[]byte("y"), "y", true}, {int64(-3), "-3", true},
		{0.99, "0.99", true}, {25.86, "25.86", true}, {1e21, "1000000000000000000000", true}, {true, "true", true},
	}
	for _, c := range cases {
		got, ok := render(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("render(%v) = %q, %v", c.in, got, ok)
		}
	}
	if n, ok := toInt("42"); !ok || n != 42 {
		t.Error("toInt string")
	}
	if f, ok := toFloat([]byte("2.5")); !ok || f != 2.5 {
		t.Error("toFloat bytes")
	}
}

func f64(f float64) *float64 { return &f }
func i64(n int64) *int64     { return &n }
func str(s string) *string   { return &s }

func TestQualityInsights(t *testing.T) {
	profiles := []catalog.ProfileDoc{
		{Column: "note", NullFraction: f64(0.873), DistinctCount: i64(10)},
		{Column: "kind", NullFraction: f64(0), DistinctCount: i64(1), Min: str("x")},
		{Column: "gone", NullFraction: f64(1), DistinctCount: i64(0)},
		{Column: "ok", NullFraction: f64(0.1), DistinctCount: i64(30)},
	}
	got := qualityInsights("orders", 830, false, profiles)
	keys := map[string]string{}
	for _, in := range got {
		keys[in.key] = in.doc.Description
		if in.doc.Kind != "quality" || len(in.evidence) == 0 {
			t.Errorf("%s: %+v", in.key, in)
		}
	}
	// The constant kind and the all-NULL gone are their profiles'
	// anomalies ("constant", "all_null"), not insights too: each finding
	// is said once.
	want := map[string]string{
		"quality:null_heavy:orders.note": "orders.note is NULL in 87.3% of 830 rows",
	}
	if len(keys) != len(want) {
		t.Errorf("got %v", keys)
	}
	for k, d := range want {
		if keys[k] != d {
			t.Errorf("%s: got %q, want %q", k, keys[k], d)
		}
	}
	if got := qualityInsights("small", 10, false, profiles); len(got) != 0 {
		t.Errorf("tiny table: %v", got)
	}
	if got := qualityInsights("empty", 0, false, nil); len(got) != 1 || got[0].key != "quality:empty_table:empty" {
		t.Errorf("empty table: %v", got)
	}
	if got := qualityInsights("big", 1000, true, profiles[:1]); !strings.Contains(got[0].doc.Description, "a sample of 1,000 rows") {
		t.Errorf("sampled: %v", got[0].doc.Description)
	}
}
