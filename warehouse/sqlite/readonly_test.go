package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

func listDir(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// writes are statements that would change the file or create others. Each
// must fail, at the guard or at the connection.
func writes(dir string) []string {
	return []string{
		`INSERT INTO customer VALUES (9, 'z@x.org', 'Zed')`,
		`UPDATE customer SET name = 'x'`,
		`DELETE FROM "order items"`,
		`CREATE TABLE t2 (a)`,
		`CREATE TEMP TABLE t3 (a)`,
		`DROP TABLE customer`,
		`ALTER TABLE customer ADD COLUMN z`,
		`CREATE INDEX i2 ON customer (name)`,
		`REINDEX`,
		`ANALYZE`,
		`VACUUM`,
		`ATTACH '` + filepath.Join(dir, "attached.db") + `' AS a2`,
		`VACUUM INTO '` + filepath.Join(dir, "copy.db") + `'`,
		`PRAGMA query_only = 0`,
		`PRAGMA user_version = 7`,
		`PRAGMA journal_mode = WAL`,
		`BEGIN IMMEDIATE`,
		`INSERT INTO docs VALUES ('x')`,
		`INSERT INTO docs(docs) VALUES ('optimize')`,
		`WITH x AS (SELECT 1) INSERT INTO customer SELECT 8, 'y@x.org', 'Y' FROM x`,
	}
}

// TestFileUnchanged is the promise of the whole tool: discovery leaves the
// database file byte-for-byte as it found it and creates nothing beside it.
func TestFileUnchanged(t *testing.T) {
	path := build(t, "shop.db")
	dir := filepath.Dir(path)
	before, files := digest(t, path), listDir(t, dir)

	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tables, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if _, err := s.RowCount(ctx, tb.Name); err != nil {
			t.Error(err)
		}
		if _, err := s.Query(ctx, "SELECT * FROM "+s.QuoteTable(tb.Name), warehouse.QueryOptions{MaxRows: 5}); err != nil {
			t.Error(err)
		}
	}
	for _, w := range writes(dir) {
		_, err := s.Query(ctx, w, warehouse.QueryOptions{})
		if !errors.Is(err, warehouse.ErrRejected) {
			t.Errorf("Query(%q) = %v; want ErrRejected", w, err)
		}
	}
	// The guard may reject first; the connection must refuse on its own too.
	for _, w := range writes(dir) {
		if _, err := s.db.ExecContext(ctx, w); err == nil {
			t.Errorf("connection accepted %q", w)
		}
	}
	if n, err := s.RowCount(ctx, warehouse.TableName{Name: "customer"}); err != nil || n != 3 {
		t.Errorf("customer rows after the write attempts = %d, %v", n, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if digest(t, path) != before {
		t.Error("the database file changed")
	}
	if after := listDir(t, dir); !slices.Equal(after, files) {
		t.Errorf("files beside the database: %v; before %v", after, files)
	}
}

// TestReadOnlyConnection proves each layer on its own, below the guard:
// mode=ro without the authorizer, then the authorizer.
func TestReadOnlyConnection(t *testing.T) {
	path := build(t, "shop.db")
	dir := filepath.Dir(path)
	before := digest(t, path)
	ctx := context.Background()

	plain, err := openDB(uri(path, false), false)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	conn, err := plain.Conn(ctx) // one connection, so the PRAGMA below sticks
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	insert := `INSERT INTO customer VALUES (9, 'z@x.org', 'Zed')`
	_, err = conn.ExecContext(ctx, insert)
	assertReadOnly(t, "mode=ro, query_only", err)
	// query_only is only a PRAGMA: a statement can turn it off, mode=ro stays.
	if _, err := conn.ExecContext(ctx, "PRAGMA query_only = 0"); err != nil {
		t.Fatal(err)
	}
	_, err = conn.ExecContext(ctx, insert)
	assertReadOnly(t, "mode=ro alone", err)
	// What mode=ro does not cover, and why the authorizer exists: ATTACH
	// creates a new, writable file.
	if _, err := conn.ExecContext(ctx, `ATTACH '`+filepath.Join(dir, "side.db")+`' AS side`); err != nil {
		t.Logf("ATTACH without the authorizer: %v", err)
	} else {
		t.Log("without the authorizer, ATTACH creates a file beside the database")
		os.Remove(filepath.Join(dir, "side.db"))
	}

	s := open(t, path)
	for _, w := range []string{insert, "PRAGMA query_only = 0", `ATTACH '` + filepath.Join(dir, "side2.db") + `' AS side`} {
		_, err := s.db.ExecContext(ctx, w)
		if code(err) != 23 {
			t.Errorf("authorizer: %q: err = %v; want SQLITE_AUTH", w, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "side2.db")); !errors.Is(err, os.ErrNotExist) {
		t.Error("ATTACH created a file despite the authorizer")
	}
	conn.Close()
	plain.Close()
	s.Close()
	if digest(t, path) != before {
		t.Error("the database file changed")
	}
}

func assertReadOnly(t *testing.T, layer string, err error) {
	t.Helper()
	if code(err) != 8 || !strings.Contains(err.Error(), "readonly") {
		t.Errorf("%s: INSERT err = %v; want SQLITE_READONLY (attempt to write a readonly database)", layer, err)
	} else {
		t.Logf("%s: INSERT refused: %v", layer, err)
	}
}

// TestWALUnchanged covers a WAL-mode file: mode=ro alone would create -wal
// and -shm files beside it.
func TestWALUnchanged(t *testing.T) {
	path := build(t, "wal.db", "PRAGMA journal_mode = WAL", "CREATE TABLE t (a)", "INSERT INTO t VALUES (1), (2)")
	dir := filepath.Dir(path)
	before, files := digest(t, path), listDir(t, dir)
	if !slices.Equal(files, []string{"wal.db"}) {
		t.Fatalf("fixture left %v", files)
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.RowCount(context.Background(), warehouse.TableName{Name: "t"}); err != nil || n != 2 {
		t.Errorf("RowCount = %d, %v", n, err)
	}
	if _, err := s.Tables(context.Background()); err != nil {
		t.Error(err)
	}
	s.Close()
	if digest(t, path) != before {
		t.Error("the database file changed")
	}
	if after := listDir(t, dir); !slices.Equal(after, files) {
		t.Errorf("files beside the database: %v", after)
	}
}

// TestWALLiveWriter: with a writer's WAL present the reader must see the
// committed rows still in the WAL, so immutable=1 must not be used.
func TestWALLiveWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.db")
	w, err := sql.Open("sqlite", path+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	for _, q := range []string{"CREATE TABLE t (a)", "INSERT INTO t VALUES (1), (2), (3)"} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s := open(t, path)
	if n, err := s.RowCount(context.Background(), warehouse.TableName{Name: "t"}); err != nil || n != 3 {
		t.Errorf("RowCount = %d, %v; want the 3 rows in the WAL", n, err)
	}
}
