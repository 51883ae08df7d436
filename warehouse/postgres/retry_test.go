package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/internal/retrytest"
)

// terminate ends the backends of db's discover sessions that match
// condition (SQL over pg_stat_activity), waiting up to a minute for one to
// appear, and returns how many it ended.
func terminate(t *testing.T, db *testDB, condition string) int {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		err := db.admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = $1 AND application_name = 'discover' AND pid <> pg_backend_pid() AND `+condition, db.name).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("no discover session of %s matched %s within a minute", db.name, condition)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDroppedConnectionIsRetried (issue 9, "Faults"): a statement whose
// backend is terminated while it runs (pg_terminate_backend, as an
// administrator or a failover does), and one sent on a pooled connection
// whose backend was terminated while idle, both succeed: the source runs
// them again on a new connection after a pause.
func TestDroppedConnectionIsRetried(t *testing.T) {
	db := newDB(t, `CREATE TABLE t (id int PRIMARY KEY)`, `INSERT INTO t SELECT generate_series(1, 10)`)
	ctx := context.Background()
	s, err := Open(ctx, db.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var r retrytest.Recorder
	s.onRetry = r.Add

	// Mid-statement. pg_sleep is the guard's to refuse, so the test goes
	// around it. The statement, wrapped in its row cap, is the source's
	// only active one.
	wait := retrytest.Background(func() (*warehouse.Result, error) {
		return s.query(ctx, `SELECT 42 AS answer, pg_sleep(1.5)`, warehouse.QueryOptions{Timeout: 30 * time.Second})
	})
	if n := terminate(t, db, `state = 'active'`); n != 1 {
		t.Fatalf("terminated %d backends", n)
	}
	got, took, err := wait()
	if err != nil {
		t.Fatalf("a statement whose backend was terminated failed: %v", err)
	}
	if len(got.Rows) != 1 || got.Rows[0][0] != int64(42) {
		t.Fatalf("result after retry: %v", got.Rows)
	}
	errs := r.List()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "57P01") {
		t.Fatalf("retried %d times (%v), want once after SQLSTATE 57P01", len(errs), errs)
	}
	// The second attempt starts after the first pause and sleeps 1.5 s.
	if min := retryBackoff[0] + 1500*time.Millisecond; took < min {
		t.Errorf("the retried statement returned after %s, before the pause and a second run (%s)", took, min)
	}

	// While idle: every pooled connection of the source is terminated.
	if _, err := s.Query(ctx, `SELECT count(*) FROM t`, warehouse.QueryOptions{}); err != nil {
		t.Fatal(err)
	}
	terminate(t, db, `state = 'idle'`)
	res, err := s.Query(ctx, `SELECT count(*) FROM t`, warehouse.QueryOptions{})
	if err != nil {
		t.Fatalf("a statement on a pool whose connections were terminated failed: %v", err)
	}
	if res.Rows[0][0] != int64(10) {
		t.Fatalf("count after reconnecting: %v", res.Rows)
	}
	if n, err := s.RowCount(ctx, warehouse.TableName{Name: "t"}); err != nil || n != 10 {
		t.Fatalf("RowCount: %d, %v", n, err)
	}
	t.Logf("retried after: %v", r.List())
}

// TestPermanentFailuresAreNotRetried: a timeout, a missing privilege and a
// bad statement fail at once, without another attempt; a cancelled context
// ends the pauses between attempts.
func TestPermanentFailuresAreNotRetried(t *testing.T) {
	db := newDB(t, `CREATE TABLE t (id int PRIMARY KEY)`, `CREATE TABLE hidden (id int)`)
	reader := db.role(t, "pw-retry", func(role string) []string {
		return []string{`GRANT SELECT ON t TO ` + role}
	})
	ctx := context.Background()
	s, err := Open(ctx, withUser(t, db.dsn, reader, "pw-retry"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var r retrytest.Recorder
	s.onRetry = r.Add

	_, err = s.query(ctx, `SELECT pg_sleep(5)`, warehouse.QueryOptions{Timeout: 200 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout: %v", err)
	}
	if _, err := s.Query(ctx, `SELECT * FROM hidden`, warehouse.QueryOptions{}); err == nil || !strings.Contains(err.Error(), "42501") {
		t.Errorf("no privilege: %v", err)
	}
	if _, err := s.Query(ctx, `SELECT no_such_column FROM t`, warehouse.QueryOptions{}); err == nil {
		t.Error("bad SQL ran")
	}
	if errs := r.List(); len(errs) != 0 {
		t.Errorf("permanent failures were retried: %v", errs)
	}

	// A context that ends during a pause ends the retries with it.
	s.backoff = []time.Duration{time.Hour}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.onRetry = func(error) { cancel() }
	attempts := 0
	start := time.Now()
	err = s.readOnly(cctx, time.Second, func(pgx.Tx) error {
		attempts++
		return &pgconn.PgError{Code: "57P01"}
	})
	if attempts != 1 || err == nil || time.Since(start) > 30*time.Second {
		t.Errorf("cancelled during the pause: %d attempts, %v, after %s", attempts, err, time.Since(start))
	}
}

func TestTransient(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, true},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "08P01", Severity: "FATAL"}, true},
		// postgres_fdw could not reach its remote server: the session is fine
		{&pgconn.PgError{Code: "08001", Severity: "ERROR", Message: `could not connect to server "remote"`}, false},
		{&pgconn.PgError{Code: "53300"}, true},
		{&pgconn.PgError{Code: "55P03"}, true},
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{pgconn.ErrConnClosed, true},
		{&pgconn.PgError{Code: "57014"}, false}, // statement timeout
		{&pgconn.PgError{Code: "42501"}, false}, // insufficient privilege
		{&pgconn.PgError{Code: "42P01"}, false}, // undefined table
		{&pgconn.PgError{Code: "25006"}, false}, // read-only transaction
		{context.DeadlineExceeded, false},
		{fmt.Errorf("x: %w", context.Canceled), false},
		{errors.New("something else"), false},
	} {
		if got := transient(c.err); got != c.want {
			t.Errorf("transient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
