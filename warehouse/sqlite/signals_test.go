package sqlite

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestContentSignals: the file's change signal is one for every table, so
// any write moves all of them; a table's content signal moves with a
// write into its rows only. That holds for a table whose rows spill into
// overflow pages, a WITHOUT ROWID table, and a write still in the WAL (a
// writer holding the file open). Indexes leave every content signal
// alone, and ANALYZE a table's. A view moves with the tables it names and
// those of the views it names; a virtual table (FTS5, its rows in shadow
// tables) with any table's rows.
func TestContentSignals(t *testing.T) {
	ctx := context.Background()
	long := strings.Repeat("x", 20000) // three overflow pages and more
	path := build(t, "content.db",
		"PRAGMA journal_mode = WAL",
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, note TEXT)",
		"CREATE TABLE codes (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID",
		"CREATE VIEW named AS SELECT id, name FROM customers",
		`CREATE VIEW both AS SELECT n.name, c.label FROM named AS n, "CODES" AS c`,
		"CREATE VIRTUAL TABLE docs USING fts5(body)",
		"INSERT INTO customers VALUES (1, 'ann', '"+long+"'), (2, 'bo', 'short')",
		"INSERT INTO codes VALUES ('a', 'one'), ('b', 'two')",
		"INSERT INTO docs VALUES ('the first document')",
	)
	s := open(t, path)
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name.String())
	}
	if strings.Join(names, " ") != "both codes customers docs named" {
		t.Fatalf("tables %v", names)
	}
	signals := func() (file, content map[string]string) {
		t.Helper()
		file, err := s.ChangeSignals(ctx, tables)
		if err != nil {
			t.Fatal(err)
		}
		content, err = s.ContentSignals(ctx, tables)
		if err != nil {
			t.Fatal(err)
		}
		// A statement per table and one pass over the whole file (which
		// a catalog of many tables takes) give the same digests.
		trees := map[string]bool{}
		for _, n := range []string{"codes", "customers", "docs_config", "docs_content", "docs_data", "docs_docsize", "docs_idx"} {
			trees[n] = true
		}
		each, err := s.pageDigests(ctx, slices.Sorted(maps.Keys(trees)))
		if err != nil {
			t.Fatal(err)
		}
		all, err := s.allPageDigests(ctx, trees)
		if err != nil {
			t.Fatal(err)
		}
		for n, d := range all {
			if strings.HasPrefix(d, "0:") {
				t.Fatalf("%s: no pages: %s", n, d)
			}
		}
		if !maps.Equal(each, all) || len(each) != len(trees) {
			t.Fatalf("a statement per table:\n%v\none pass:\n%v", each, all)
		}
		for _, n := range names {
			if content[n] == "" {
				t.Fatalf("%s has no content signal: %v", n, content)
			}
		}
		return file, content
	}
	_, before := signals()
	if _, again := signals(); !maps.Equal(before, again) {
		t.Fatalf("reading twice moved the content signals:\n%v\n%v", before, again)
	}
	// moved checks which content signals a write moved, and that the
	// file's signal moved for every table.
	moved := func(what string, want ...string) {
		t.Helper()
		fileBefore, _ := s.ChangeSignals(ctx, tables)
		w := writer(t, path, "PRAGMA wal_autocheckpoint = 0", what)
		defer w.Close() // the write stays in the WAL while the signals are read
		file, after := signals()
		for _, n := range names {
			if file[n] == fileBefore[n] {
				t.Errorf("%s: the file signal of %s did not move", what, n)
			}
			changed := after[n] != before[n]
			if changed != slices.Contains(want, n) {
				t.Errorf("%s: content signal of %s moved %v, want %v", what, n, changed, slices.Contains(want, n))
			}
		}
		before = after
	}
	moved("UPDATE customers SET note = note || 'y' WHERE id = 1", "customers", "named", "docs", "both")
	moved("UPDATE codes SET label = 'uno' WHERE code = 'a'", "codes", "docs", "both")
	moved("INSERT INTO docs VALUES ('a second document')", "docs")
	moved("CREATE INDEX customers_name ON customers (name)")
	moved("ANALYZE", "docs")
	moved("UPDATE customers SET name = 'bob' WHERE id = 2", "customers", "named", "docs", "both")
}
