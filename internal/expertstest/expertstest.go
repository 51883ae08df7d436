// Package expertstest holds the setup the experts' tests repeat before they
// build an experts.Env: a SQLite file made from statements, a fresh
// catalog, the tables of the source under test, and the large tables of
// the sampling tests and benchmarks, built once and kept across runs. The
// experts' packages each test through their own harness; what the
// harnesses share is here.
//
// It is imported by tests only, and imports no expert (only the experts
// framework), so that any expert's in-package tests may use it.
package expertstest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// RunTasks plans each of xs on env and runs its tasks in order, failing
// the test at the first error: one round of the orchestrator's work
// without the orchestrator.
func RunTasks(t testing.TB, ctx context.Context, env *experts.Env, xs ...experts.Expert) {
	t.Helper()
	for _, x := range xs {
		tasks, err := x.Plan(ctx, env.For(x.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range tasks {
			if err := tk.Run(ctx); err != nil {
				t.Fatalf("%s: %v", tk.Name, err)
			}
		}
	}
}

// SQLite creates a SQLite database at path by running stmts in order on
// one connection (so that a PRAGMA among them holds for the rest), closed
// before it returns: the source under test opens the file afterwards.
func SQLite(t testing.TB, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// Catalog opens an empty catalog in a folder of the test's own, closed
// when the test ends.
func Catalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Open(context.Background(), filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	return cat
}

// Tables lists src's tables, as discovery hands them to every expert.
func Tables(t testing.TB, src warehouse.Source) []warehouse.Table {
	t.Helper()
	tables, err := src.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tables
}

// Kept is a database file built once per process, in a folder under the
// system's temporary folder that is kept across runs: a table of millions
// of rows takes seconds to build, which every run would pay again. The
// folder's name says what the file holds and how many rows (a version and
// the count), so that changing either builds a new one.
type Kept struct {
	once sync.Once
	path string
	err  error
}

// Path returns the path of the file name in the kept folder dir, calling
// build(path) on the first call when the file is not there yet. build
// writes the file whole or not at all (BuildTable does), so that an
// interrupted run leaves no half-built table for the next one to take.
func (k *Kept) Path(t testing.TB, dir, name string, build func(path string) error) string {
	t.Helper()
	k.once.Do(func() {
		dir := filepath.Join(os.TempDir(), dir)
		if k.err = os.MkdirAll(dir, 0o755); k.err != nil {
			return
		}
		k.path = filepath.Join(dir, name)
		if _, err := os.Stat(k.path); err == nil {
			return
		}
		k.err = build(k.path)
	})
	if k.err != nil {
		t.Fatal(k.err)
	}
	return k.path
}

// BuildTable runs stmts into a new database file of driver (whose driver
// the caller registers) and checks that table has n rows. The file is
// written aside and renamed into place at the end, or removed on failure,
// so that the next run does not take half a table for a whole one. One
// connection runs them all, so that a PRAGMA among them holds for the
// rest.
func BuildTable(driver, path, table string, n int64, stmts ...string) error {
	tmp := path + ".building"
	os.Remove(tmp)
	db, err := sql.Open(driver, tmp)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			db.Close()
			os.Remove(tmp)
			return fmt.Errorf("build %s: %.200s: %w", path, s, err)
		}
	}
	var got int64
	if err := db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&got); err != nil || got != n {
		db.Close()
		os.Remove(tmp)
		return fmt.Errorf("build %s: %d rows (%v), want %d", path, got, err, n)
	}
	if err := db.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
