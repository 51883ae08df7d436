// Package pgscratch gives a test a PostgreSQL database of its own on the
// test server (DISCOVER_TEST_POSTGRES), dropped when the test ends, and
// reads PostgreSQL's statistics counters once they have settled. The
// command's tests and the experts' tests both build scratch databases and
// read counters (of rows written, of tuples read) to check what a
// discovery did; this package keeps one way of doing each.
//
// It is imported by tests only.
package pgscratch

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/discover-db/discover/internal/load"
)

// Server returns the admin DSN of the test PostgreSQL server from
// DISCOVER_TEST_POSTGRES, failing in CI (where .ci/run starts the servers)
// and skipping the test elsewhere.
func Server(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("DISCOVER_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_POSTGRES not set: .ci/run starts the servers")
		}
		t.Skip(`DISCOVER_TEST_POSTGRES not set: run eval "$(.ci/start-servers)" first`)
	}
	return dsn
}

// Database creates a database of its own for the test on server, named
// prefix_<nanoseconds> so that runs never meet, and opens an admin
// connection to it. When the test ends the connection is closed and the
// database dropped; a caller that creates roles in it and drops them at
// the end registers that clean-up before calling Database, so that it runs
// after the database (which holds the roles' privileges) is gone.
func Database(t testing.TB, server, prefix string) (dsn, name string, admin *sql.DB) {
	t.Helper()
	name = fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano())
	dsn, drop, err := load.CreateDatabase(context.Background(), "postgres", server, name)
	if err != nil {
		t.Fatal(err)
	}
	admin, err = sql.Open("pgx", dsn)
	if err != nil {
		drop()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Close()
		drop()
	})
	return dsn, name, admin
}

// Settled returns read's result once PostgreSQL's statistics counters
// have settled: a backend's counts reach the shared counters only when it
// goes idle or exits, so read is called until two readings a second apart
// agree (at most ten seconds; then the last reading).
func Settled[T comparable](read func() T) T {
	prev := read()
	for range 10 {
		time.Sleep(time.Second)
		cur := read()
		if cur == prev {
			return cur
		}
		prev = cur
	}
	return prev
}

// DumpSum is the sha256 of pg_dump's output for dsn, schema and data: what
// a test compares to show a database did not change.
func DumpSum(t testing.TB, dsn string) string {
	t.Helper()
	bin, err := exec.LookPath("pg_dump")
	if err != nil {
		bin = "/usr/lib/postgresql/15/bin/pg_dump"
	}
	out, err := exec.Command(bin, "--dbname="+dsn, "--no-sync").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("pg_dump: %v: %s", err, ee.Stderr)
		}
		t.Fatalf("pg_dump: %v", err)
	}
	// pg_dump since 15.14 brackets its output in \restrict KEY …
	// \unrestrict KEY with a random key: the one part that differs.
	h := sha256.New()
	for _, line := range strings.SplitAfter(string(out), "\n") {
		if !strings.HasPrefix(line, `\restrict `) && !strings.HasPrefix(line, `\unrestrict `) {
			h.Write([]byte(line))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
