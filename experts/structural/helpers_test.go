package structural_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// sqliteFile builds a SQLite database from statements.
func sqliteFile(t *testing.T, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "db.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return path
}

// inventoried runs the structural expert's first round (the inventory of
// every table) on the SQLite file at path, read through wrap's source when
// wrap is set, with --sample-rows 1000, and returns the catalog.
func inventoried(t *testing.T, path string, wrap func(*sqlite.Source) warehouse.Source) *catalog.Catalog {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	tables, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var s warehouse.Source = src
	if wrap != nil {
		s = wrap(src)
	}
	env := experts.NewEnv(s, cat, "run1", 1, 1, tables, experts.Options{SampleRows: 1000}, new(atomic.Int64))
	tasks, err := structural.New().Plan(ctx, env.For(structural.Name))
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if err := task.Run(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return cat
}
