package duckdb

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
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
