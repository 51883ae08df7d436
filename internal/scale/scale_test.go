package scale

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A small instance: the tables and rows asked for, every declared
// reference satisfied, and the same file content on a second generation.
func TestGenerate(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, err := Ensure(ctx, dir, 20, 300)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Ensure(ctx, dir, 20, 300)
	if err != nil || again != path {
		t.Fatalf("Ensure did not reuse %s: %s, %v", path, again, err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).Scan(&tables); err != nil || tables != 20 {
		t.Fatalf("%d tables, %v", tables, err)
	}
	var total int64
	for _, tb := range Tables(20, 300) {
		var n int64
		if err := db.QueryRow(`SELECT count(*) FROM ` + tb.Name).Scan(&n); err != nil || n != tb.Rows {
			t.Fatalf("%s: %d rows, want %d (%v)", tb.Name, n, tb.Rows, err)
		}
		total += n
	}
	if total < 20*300*98/100 || total > 20*300 {
		t.Errorf("%d rows in all, want about %d", total, 20*300)
	}
	rows, err := db.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if rows.Next() {
		t.Error("a declared reference is broken")
	}
	if n := len(Tables(1000, RowsPerTable)); n != 1000 {
		t.Errorf("Tables(1000) lists %d", n)
	}
	other := filepath.Join(t.TempDir(), "b.db")
	if err := Generate(ctx, other, 20, 300); err != nil {
		t.Fatal(err)
	}
	if a, b := dump(t, path), dump(t, other); a != b {
		t.Error("two generations differ")
	}
}

// dump renders every row of every table as text.
func dump(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	for _, tb := range Tables(20, 300) {
		rows, err := db.Query(`SELECT * FROM ` + tb.Name + ` ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
	}
	return b.String()
}
