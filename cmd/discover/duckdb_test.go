package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/report"
)

// TestDuckDBParquetFolder discovers a folder of Parquet files end to end:
// each file is a table, keys and the reference between them are inferred
// from the data, and the files are not touched.
func TestDuckDBParquetFolder(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`COPY (SELECT i AS customer_id, 'c' || i AS name FROM range(1, 201) t(i)) TO '` + filepath.Join(dir, "customers.parquet") + `' (FORMAT parquet)`,
		`COPY (SELECT i AS order_id, 1 + (i * 7) % 200 AS customer_id, (i % 50) * 1.5 AS total FROM range(1, 1001) t(i)) TO '` + filepath.Join(dir, "orders.parquet") + `' (FORMAT parquet)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	before := map[string][32]byte{}
	for _, f := range []string{"customers.parquet", "orders.parquet"} {
		before[f] = sha(t, filepath.Join(dir, f))
	}

	out := t.TempDir()
	res := run(t, "--db", "duckdb://"+dir, "--out", out, "--format", "json", "--progress", "none", "-q")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	_, r := readReport(t, out)
	if r.Database.Dialect != "duckdb" || len(r.Tables) != 2 {
		t.Fatalf("dialect %s, %d tables", r.Database.Dialect, len(r.Tables))
	}
	rows := map[string]int64{}
	for _, tb := range r.Tables {
		if tb.Kind != "table" || tb.RowCount == nil {
			t.Fatalf("%s: kind %s rows %v", tb.Name, tb.Kind, tb.RowCount)
		}
		rows[tb.Name] = *tb.RowCount
		if strings.Join(tb.PrimaryKey, ",") != tb.Name[:len(tb.Name)-1]+"_id" || tb.PrimaryKeySource == nil || *tb.PrimaryKeySource != "inferred" {
			t.Errorf("%s: key %v (%v), want the inferred %s_id", tb.Name, tb.PrimaryKey, tb.PrimaryKeySource, tb.Name[:len(tb.Name)-1])
		}
	}
	if rows["customers"] != 200 || rows["orders"] != 1000 {
		t.Fatalf("row counts %v", rows)
	}
	if len(r.Relationships) != 1 {
		t.Fatalf("relationships %+v", r.Relationships)
	}
	rel := r.Relationships[0]
	if rel.FromTable != "orders" || rel.ToTable != "customers" || rel.Source != "inferred" ||
		rel.OrphanFraction == nil || *rel.OrphanFraction != 0 {
		t.Fatalf("relationship %+v", rel)
	}
	for f, h := range before {
		if sha(t, filepath.Join(dir, f)) != h {
			t.Fatalf("%s changed", f)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("files appeared in the data folder: %d entries", len(entries))
	}
}

// TestDuckDBSampledRunsRepeat: two discoveries of the same DuckDB file, in
// which events holds more than ten samples' worth of rows and is read
// through samples by every expert, report the same figures, hypotheses
// and verdicts, so that a CI job diffing its reports sees no noise. A
// block sample (USING SAMPLE … (system, seed)) is not repeatable across
// DuckDB's threads: the seed fixes a thread's draws, not which thread
// reads which vector.
func TestDuckDBSampledRunsRepeat(t *testing.T) {
	if heavy.Short() {
		t.Skip("builds a table of a million rows")
	}
	path := filepath.Join(t.TempDir(), "events.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	rows := duckRepeatRows()
	for _, s := range []string{
		`CREATE TABLE customers AS SELECT i AS id, 'c' || i AS name FROM range(1, 2001) t(i)`,
		`CREATE TABLE events AS SELECT i AS id, 1 + (i * 7919) % 2000 AS customer_id,
			['new', 'paid', 'shipped', 'delivered', 'cancelled'][1 + (i * 31) % 5] AS status,
			CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 104729) % 1000 END AS amount,
			DATE '2023-01-01' + CAST(i % 700 AS INTEGER) AS created_at
			FROM range(1, ` + fmt.Sprint(rows+1) + `) t(i)`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()

	once := func() (string, report.Report) {
		out := t.TempDir()
		res := run(t, "--db", "duckdb://"+path, "--out", out, "--format", "json", "--progress", "none", "-q",
			"--sample-rows", "10000", "--catalog", filepath.Join(out, "catalog.db"))
		if res.code != 0 {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		_, r := readReport(t, out)
		b, err := json.MarshalIndent(struct {
			Tables, Relationships, Hypotheses, Insights any
		}{r.Tables, r.Relationships, r.Hypotheses, r.Insights}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b), r
	}
	first, r := once()
	second, r2 := once()
	for i, rr := range []report.Report{r, r2} {
		t.Logf("run %d: %d iterations, %d queries, stopped for %v; uncertainties %q",
			i+1, rr.Run.Iterations, rr.Run.Queries, derefS(rr.Run.StopReason), rr.Uncertainties)
	}
	sampled := false
	for _, h := range r.Hypotheses {
		sampled = sampled || strings.Contains(strings.Join(h.Evidence, " "), "sample of 10,000 rows of events")
	}
	if !sampled {
		t.Fatalf("no hypothesis was tested on a sample of events: the test does not test sampling")
	}
	if first != second {
		a, b := strings.Split(first, "\n"), strings.Split(second, "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("the second run's report differs at line %d:\n  %s\n  %s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("the second run's report differs in length: %d and %d lines", len(a), len(b))
	}
}

// duckRepeatRows sizes TestDuckDBSampledRunsRepeat's events: a million
// rows, a fifth of that under the race detector, both far above the ten
// samples of 10,000 rows from which every expert reads through a sample.
func duckRepeatRows() int {
	if heavy.Race {
		return 200_000
	}
	return 1_000_000
}
