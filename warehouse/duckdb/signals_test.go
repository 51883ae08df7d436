package duckdb

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// TestChangeSignals: in a folder source, rewriting one data file moves
// only the signal of the view that reads it; a database file's tables
// share the file's signal, which a write moves.
func TestChangeSignals(t *testing.T) {
	ctx := context.Background()
	dir := lake(t)
	signals := func(dsn string) map[string]string {
		t.Helper()
		// Closed at once: a write to the file needs it closed (DuckDB keeps
		// one instance, and one configuration, per file).
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		tables, err := s.Tables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := s.ChangeSignals(ctx, tables)
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	before := signals("duckdb://" + dir)
	for _, n := range []string{"customers", "orders", "regions_2024"} {
		if before[n] == "" {
			t.Fatalf("%s has no signal: %v", n, before)
		}
	}
	if again := signals("duckdb://" + dir); again["orders"] != before["orders"] || again["customers"] != before["customers"] {
		t.Fatalf("nothing was done, yet the signals moved:\n%v\n%v", before, again)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(dir, "orders.parquet"), later, later); err != nil {
		t.Fatal(err)
	}
	after := signals("duckdb://" + dir)
	if after["orders"] == before["orders"] || after["customers"] != before["customers"] || after["regions_2024"] != before["regions_2024"] {
		t.Fatalf("orders.parquet rewritten:\n%v\n%v", before, after)
	}

	file := filepath.Join(t.TempDir(), "shop.duckdb")
	exec(t, file, `CREATE TABLE a (id INTEGER)`, `CREATE TABLE b (id INTEGER)`, `INSERT INTO a VALUES (1)`)
	first := signals(file)
	if first["a"] == "" || first["a"] != first["b"] {
		t.Fatalf("a database file's tables: %v", first)
	}
	time.Sleep(20 * time.Millisecond)
	exec(t, file, `INSERT INTO b VALUES (2)`, `CHECKPOINT`)
	if second := signals(file); second["a"] == first["a"] {
		t.Fatalf("a write into the file did not move its signal: %v", second)
	}
}

// TestContentSignals: in a database file, whose tables share one change
// signal, a table's content signal moves with an UPDATE and a DELETE of
// its rows (which DuckDB's storage information does not show), not with
// another table's, and is the old one again when a row is written back; a
// view's moves with the tables it names, through the views it names; a
// view that reads a file has none, nothing in the database vouching for
// the file.
func TestContentSignals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	csv := filepath.Join(dir, "rates.csv")
	if err := os.WriteFile(csv, []byte("code,rate\nEUR,1.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "shop.duckdb")
	exec(t, file,
		`CREATE TABLE customers AS SELECT range AS id, 'c' || range AS name FROM range(5000)`,
		`CREATE TABLE orders AS SELECT range AS id, range % 5000 AS customer_id, 'paid' AS status, [range, 1] AS tags FROM range(20000)`,
		`CREATE VIEW paid AS SELECT * FROM orders WHERE status = 'paid'`,
		`CREATE VIEW paid_named AS SELECT p.id, c.name FROM paid AS p JOIN customers AS c ON c.id = p.customer_id`,
		`CREATE VIEW rates AS SELECT * FROM read_csv('`+csv+`')`,
		`CHECKPOINT`)
	signals := func() map[string]string {
		t.Helper()
		s := open(t, file)
		defer s.Close()
		tables, err := s.Tables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The view over a file is not listed (the source reads no file
		// the user did not name); asked for all the same, it has none.
		tables = append(tables, warehouse.Table{Name: warehouse.TableName{Name: "rates"}, Kind: "view"})
		sig, err := s.ContentSignals(ctx, tables)
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	first := signals()
	for _, n := range []string{"customers", "orders", "paid", "paid_named"} {
		if first[n] == "" {
			t.Fatalf("%s has no content signal: %v", n, first)
		}
	}
	if v, ok := first["rates"]; !ok || v != "" {
		t.Fatalf("the view over a file: %q, %v", v, ok)
	}
	moved := func(what string, before, after map[string]string, want ...string) {
		t.Helper()
		for _, n := range []string{"customers", "orders", "paid", "paid_named"} {
			if changed := before[n] != after[n]; changed != slices.Contains(want, n) {
				t.Errorf("%s: %s moved %v, want %v", what, n, changed, !changed)
			}
		}
	}
	exec(t, file, `UPDATE customers SET name = 'x' WHERE id = 7`, `CHECKPOINT`)
	second := signals()
	moved("an UPDATE of customers", first, second, "customers", "paid_named")
	exec(t, file, `UPDATE customers SET name = 'c7' WHERE id = 7`)
	third := signals()
	moved("customers written back", first, third)
	exec(t, file, `DELETE FROM orders WHERE id = 11`, `CHECKPOINT`)
	moved("a DELETE from orders", third, signals(), "orders", "paid", "paid_named")
}
