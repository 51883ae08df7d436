package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// walFixture is a WAL-mode file with 2 rows in t and no -wal or -shm beside
// it, dated an hour back, as a file left by a program that has since
// exited: discover opens it immutable.
func walFixture(t *testing.T) string {
	t.Helper()
	path := build(t, "wal.db", "PRAGMA journal_mode = WAL", "CREATE TABLE t (a)", "INSERT INTO t VALUES (1), (2)")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if files := listDir(t, filepath.Dir(path)); !slices.Equal(files, []string{"wal.db"}) {
		t.Fatalf("fixture left %v", files)
	}
	return path
}

// writer opens the file the way an application does: read-write, WAL.
func writer(t *testing.T, path string, stmts ...string) *sql.DB {
	t.Helper()
	w, err := sql.Open("sqlite", path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	for _, q := range stmts {
		if _, err := w.Exec(q); err != nil {
			w.Close()
			t.Fatalf("%s: %v", q, err)
		}
	}
	return w
}

func countRows(t *testing.T, s *Source) int64 {
	t.Helper()
	ctx := context.Background()
	n, err := s.RowCount(ctx, warehouse.TableName{Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(ctx, "SELECT count(*) FROM t", warehouse.QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if q := res.Rows[0][0].(int64); q != n {
		t.Errorf("RowCount %d, Query %d", n, q)
	}
	return n
}

// TestWALWriterAfterOpen: a writer that starts after discover opened the
// file immutable is seen. Its commits wait in the WAL, which an immutable
// connection never reads; the next statement finds the -wal and -shm files
// and moves to a normal read-only pool, which reads the WAL and takes
// SQLite's locks, through the writer's checkpoints and after it closes.
func TestWALWriterAfterOpen(t *testing.T) {
	path := walFixture(t)
	s := open(t, path)
	if s.snap == nil {
		t.Fatal("a WAL file without -wal and -shm was not opened immutable")
	}
	if n := countRows(t, s); n != 2 {
		t.Fatalf("%d rows before the writer, want 2", n)
	}
	w := writer(t, path, "PRAGMA wal_autocheckpoint = 0", "INSERT INTO t VALUES (3), (4), (5)", "CREATE TABLE u (b)")
	defer w.Close()
	if n := countRows(t, s); n != 5 {
		t.Errorf("%d rows after the writer's commit, want the 5 committed", n)
	}
	if s.snap != nil {
		t.Error("still immutable with a writer active")
	}
	tables, err := s.Tables(context.Background())
	if err != nil || len(tables) != 2 {
		t.Errorf("tables %v, %v; want t and the writer's u", tables, err)
	}
	for _, q := range []string{"PRAGMA wal_checkpoint(TRUNCATE)", "INSERT INTO t VALUES (6)", "PRAGMA wal_checkpoint(TRUNCATE)", "DELETE FROM t WHERE a = 1"} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if n := countRows(t, s); n != 5 {
		t.Errorf("%d rows after checkpoints, an insert and a delete, want 5", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s); n != 5 {
		t.Errorf("%d rows after the writer closed, want 5", n)
	}
}

// TestWALWriterBetweenReads: a writer that opens, commits and closes
// between two statements checkpoints into the file and removes its WAL:
// the file changed with no WAL beside it, so a fresh immutable pool reads
// it, and discover still creates nothing beside the file.
func TestWALWriterBetweenReads(t *testing.T) {
	path := walFixture(t)
	s := open(t, path)
	if n := countRows(t, s); n != 2 {
		t.Fatalf("%d rows, want 2", n)
	}
	if err := writer(t, path, "INSERT INTO t VALUES (3)").Close(); err != nil {
		t.Fatal(err)
	}
	if files := listDir(t, filepath.Dir(path)); !slices.Equal(files, []string{"wal.db"}) {
		t.Fatalf("the writer left %v", files)
	}
	if n := countRows(t, s); n != 3 {
		t.Errorf("%d rows after the writer, want 3", n)
	}
	if s.snap == nil {
		t.Error("left the immutable pool with no writer present")
	}
	s.Close()
	if files := listDir(t, filepath.Dir(path)); !slices.Equal(files, []string{"wal.db"}) {
		t.Errorf("files beside the database: %v", files)
	}
}

// TestWALWriterDuringRead: a writer that checkpoints into the file while an
// immutable connection reads it may leave that read with pages from before
// and after: the statement is run again on the changed file, or, when its
// rows were handed over already (Stream), fails rather than return them.
func TestWALWriterDuringRead(t *testing.T) {
	path := walFixture(t)
	s := open(t, path)
	ctx := context.Background()
	armed := false // a writer commits once, after the next statement's read
	s.onRead = func() {
		if !armed {
			return
		}
		armed = false
		if err := writer(t, path, "INSERT INTO t VALUES (3)").Close(); err != nil {
			t.Fatal(err)
		}
	}
	armed = true
	res, err := s.Query(ctx, "SELECT count(*) FROM t", warehouse.QueryOptions{})
	if err != nil || res.Rows[0][0].(int64) != 3 {
		t.Errorf("Query: %v, %v; want the 3 rows of the file as changed", res, err)
	}
	armed = true
	var rows int
	err = s.Stream(ctx, "SELECT a FROM t", warehouse.QueryOptions{}, func([]any) error { rows++; return nil })
	if !errors.Is(err, errChanged) {
		t.Errorf("Stream: %v after %d rows, want %v", err, rows, errChanged)
	}
	s.onRead = nil
	if n := countRows(t, s); n != 4 {
		t.Errorf("%d rows, want 4", n)
	}
}

// TestWALReadOnlyFolder: in a folder discover may not write to, a WAL file
// is still read (immutable), where mode=ro alone would fail to create the
// -shm file.
func TestWALReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes to read-only folders")
	}
	path := walFixture(t)
	dir := filepath.Dir(path)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	s := open(t, path)
	if n := countRows(t, s); n != 2 {
		t.Errorf("%d rows, want 2", n)
	}
}

// TestWALWriterConcurrentReads: statements running on several connections
// while a writer starts and commits move to the normal pool together; none
// fails, and none sees the rows go back.
func TestWALWriterConcurrentReads(t *testing.T) {
	path := walFixture(t)
	s := open(t, path)
	ctx := context.Background()
	stop := make(chan struct{})
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			last := int64(0)
			for {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				res, err := s.Query(ctx, "SELECT count(*) FROM t", warehouse.QueryOptions{})
				if err != nil {
					errs <- err
					return
				}
				n := res.Rows[0][0].(int64)
				if n < last {
					errs <- fmt.Errorf("%d rows after %d", n, last)
					return
				}
				last = n
			}
		}()
	}
	w := writer(t, path)
	for i := 0; i < 20; i++ {
		if _, err := w.Exec("INSERT INTO t VALUES (?)", i); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	close(stop)
	for g := 0; g < 8; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := countRows(t, s); n != 22 {
		t.Errorf("%d rows, want 22", n)
	}
}
