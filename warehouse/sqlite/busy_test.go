package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// lockFile takes an exclusive lock on the database at path from another
// connection, as a writer in the middle of a long transaction does; the
// returned function releases it.
func lockFile(t *testing.T, path string) func() {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	released := false
	return func() {
		if !released {
			released = true
			if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
				t.Error(err)
			}
			conn.Close()
		}
	}
}

// TestLockedFileIsRetried (issue 9, "Faults"): a statement that finds the
// file locked by a writer for longer than busy_timeout is run again after
// a pause, and succeeds once the writer lets go; Query, Stream and RowCount
// alike. A lock that outlasts every attempt fails the statement with
// SQLite's "database is locked".
func TestLockedFileIsRetried(t *testing.T) {
	path := build(t, "locked.db", "CREATE TABLE t (x INTEGER)",
		"WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100) INSERT INTO t SELECT i FROM c")
	defer func(ms int) { busyTimeoutMS = ms }(busyTimeoutMS)
	busyTimeoutMS = 50 // the real 5 s would only make the test slow
	s := open(t, path)
	ctx := context.Background()

	for _, op := range []struct {
		name string
		run  func() (int64, error)
	}{
		{"query", func() (int64, error) {
			res, err := s.Query(ctx, "SELECT count(*) FROM t", warehouse.QueryOptions{})
			if err != nil {
				return 0, err
			}
			return res.Rows[0][0].(int64), nil
		}},
		{"stream", func() (int64, error) {
			var n int64
			err := s.Stream(ctx, "SELECT x FROM t", warehouse.QueryOptions{}, func([]any) error { n++; return nil })
			return n, err
		}},
		{"row count", func() (int64, error) { return s.RowCount(ctx, warehouse.TableName{Name: "t"}) }},
	} {
		t.Run(op.name, func(t *testing.T) {
			release := lockFile(t, path)
			defer release()
			var retried []error
			// The writer lets go when the first attempt has failed: the
			// second one, after the pause, must find the file free.
			s.onRetry = func(err error) {
				retried = append(retried, err)
				release()
			}
			defer func() { s.onRetry = nil }()
			start := time.Now()
			n, err := op.run()
			if err != nil {
				t.Fatalf("after the lock was released: %v", err)
			}
			if n != 100 {
				t.Fatalf("read %d rows, want 100", n)
			}
			if len(retried) != 1 || code(retried[0]) != 5 {
				t.Fatalf("retried %v, want once after SQLITE_BUSY", retried)
			}
			if took := time.Since(start); took < busyBackoff[0] {
				t.Errorf("succeeded after %s, before the first pause (%s) was over", took, busyBackoff[0])
			}
		})
	}

	t.Run("lock outlasts the attempts", func(t *testing.T) {
		defer lockFile(t, path)()
		defer func(b []time.Duration) { s.backoff = b }(s.backoff)
		s.backoff = []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}
		retries := 0
		s.onRetry = func(error) { retries++ }
		defer func() { s.onRetry = nil }()
		_, err := s.Query(ctx, "SELECT count(*) FROM t", warehouse.QueryOptions{})
		if err == nil || !strings.Contains(err.Error(), "locked") || retries != 2 {
			t.Fatalf("%d retries, then %v; want 2 and database is locked", retries, err)
		}
	})
}
