package hs2

import (
	"context"
	"errors"
	"net/url"
	"os"
	"testing"
	"time"
)

// dialTest opens a session on the Spark Thrift Server the integration
// tests start (DISCOVER_TEST_SPARK, spark://user@host:port/db).
func dialTest(t *testing.T) *Conn {
	t.Helper()
	dsn := os.Getenv("DISCOVER_TEST_SPARK")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_SPARK not set: .ci/run starts the server")
		}
		t.Skip(`DISCOVER_TEST_SPARK not set: run eval "$(.ci/start-servers)" first`)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cn, err := Dial(ctx, &Config{Host: u.Host, User: u.User.Username(), Database: "default", Auth: AuthNone}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cn.Close() })
	return cn
}

// The caller's deadline ends a running statement within a poll's pause,
// not at the server's own timeout: before the session set its long
// polling, a status call waited on the server for the statement, and a
// 50 ms deadline returned after 2 s (the query timeout Exec sends, whole
// seconds). The grace before the close is left out here: it is not the
// wait being measured.
func TestDeadlineEndsStatementPromptly(t *testing.T) {
	cn := dialTest(t)
	grace := closeGrace
	closeGrace = 0
	t.Cleanup(func() { closeGrace = grace })
	slow := "SELECT sum(id % 7) FROM range(0, 1000000000000)"
	best := time.Hour
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		start := time.Now()
		_, err := cn.Exec(ctx, slow, 1)
		d := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v; want context.DeadlineExceeded", err)
		}
		best = min(best, d)
	}
	// The fastest of three, so that one slow moment of a loaded machine
	// does not decide.
	if best > time.Second {
		t.Errorf("a 50 ms deadline returned after %s at best; want within a second", best)
	}
	res, err := cn.Exec(context.Background(), "SELECT 1", 1)
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != int64(1) {
		t.Errorf("SELECT 1 after the deadlines: %+v, %v", res, err)
	}
}
