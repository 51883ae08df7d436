package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
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
