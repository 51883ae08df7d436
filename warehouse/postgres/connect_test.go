package postgres

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

// openFails opens dsn, which must fail as bad input with one line that
// starts with want, never shows password, and comes within limit.
func openFails(t *testing.T, dsn, password, want string, limit time.Duration) {
	t.Helper()
	start := time.Now()
	s, err := Open(context.Background(), dsn)
	elapsed := time.Since(start)
	if err == nil {
		s.Close()
		t.Errorf("Open(%s) succeeded", warehouse.Redact(dsn))
		return
	}
	msg := err.Error()
	if !errors.Is(err, warehouse.ErrBadInput) {
		t.Errorf("Open(%s) = %q; want ErrBadInput", warehouse.Redact(dsn), msg)
	}
	if !strings.HasPrefix(msg, want) {
		t.Errorf("Open(%s) = %q; want it to start %q", warehouse.Redact(dsn), msg, want)
	}
	if password != "" && strings.Contains(msg, password) {
		t.Errorf("Open(%s) = %q shows the password", warehouse.Redact(dsn), msg)
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("Open(%s) = %q: more than one line", warehouse.Redact(dsn), msg)
	}
	if elapsed > limit {
		t.Errorf("Open(%s) took %s, want under %s", warehouse.Redact(dsn), elapsed, limit)
	}
}

func TestOpenBadInput(t *testing.T) {
	t.Parallel()
	const pw = "Hunter2-secret"
	base := serverDSN(t)

	t.Run("connection refused", func(t *testing.T) {
		openFails(t, "postgres://someone:"+pw+"@127.0.0.1:1/db?sslmode=disable", pw,
			"postgres: cannot reach 127.0.0.1:1: connection refused", 2*time.Second)
	})
	t.Run("missing database", func(t *testing.T) {
		openFails(t, withDB(t, withUser(t, base, "postgres", pw), "nope_db"), pw,
			`postgres: database "nope_db" does not exist`, 2*time.Second)
	})
	t.Run("unknown host", func(t *testing.T) {
		openFails(t, "postgres://someone:"+pw+"@no-such-host.invalid/db?connect_timeout=3", pw,
			"postgres: cannot resolve host no-such-host.invalid", 5*time.Second)
	})
	t.Run("silent server", func(t *testing.T) {
		// Accepts the connection, never answers: only connect_timeout ends it.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close()
			}
		}()
		addr := ln.Addr().String()
		openFails(t, "postgres://someone:"+pw+"@"+addr+"/db?sslmode=disable&connect_timeout=1", pw,
			"postgres: cannot reach "+addr+": no answer within 1s", 3*time.Second)
	})
	for _, c := range []struct{ name, dsn, want string }{
		{"bad escape in password", "postgres://someone:" + pw + "%zz@host/db", "postgres: malformed DSN postgres://someone:***@host/db: "},
		{"space in password", "postgres://someone:" + pw + " x@host/db", "postgres: malformed DSN postgres://someone:***@host/db: "},
		{"bad port", "postgres://someone:" + pw + "@host:port/db", "postgres: malformed DSN postgres://someone:***@host:port/db: "},
		{"bad parameter", "postgres://someone:" + pw + "@host/db?sslmode=sometimes", "postgres: malformed DSN postgres://someone:***@host/db?sslmode=sometimes: "},
	} {
		t.Run(c.name, func(t *testing.T) { openFails(t, c.dsn, pw, c.want, time.Second) })
	}

	t.Run("wrong password", func(t *testing.T) {
		db := newDB(t)
		role := db.role(t, "the-right-one", func(string) []string { return nil })
		if s, err := Open(context.Background(), withUser(t, db.dsn, role, "the-right-one")); err != nil {
			t.Fatalf("the right password: %v", err)
		} else {
			s.Close()
		}
		// The server may still be loading the rule that makes it check.
		dsn := withUser(t, db.dsn, role, pw)
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			s, err := Open(context.Background(), dsn)
			if err != nil || time.Now().After(deadline) {
				if s != nil {
					s.Close()
				}
				break
			}
			s.Close()
		}
		openFails(t, dsn, pw, "postgres: authentication failed for user "+role, 2*time.Second)
	})
}

func TestScrub(t *testing.T) {
	for _, c := range []struct{ dsn, pw string }{
		{"postgres://u:p%zzw@h/db", "p%zzw"},
		{"postgres://u:a@b@h/db?x=1", "a@b"},
		{"postgres://u@h/db", ""},
		{"postgres://h/db?password=x", ""},
		{"host=h password='a b' dbname=x", "a b"},
		{"host=h password=secret dbname=x", "secret"},
	} {
		if got := dsnPassword(c.dsn); got != c.pw {
			t.Errorf("dsnPassword(%q) = %q, want %q", c.dsn, got, c.pw)
		}
	}
	if got := scrub(`invalid percent-encoded token: "%zz"`, "p%zzw"); got != `invalid percent-encoded token: "***"` {
		t.Errorf("scrub = %q", got)
	}
	if got := scrub(`bad "thing" secret`, "secret"); got != `bad "thing" ***` {
		t.Errorf("scrub = %q", got)
	}
}

func TestCursorBody(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT 1;":                            "SELECT 1",
		"  select 1 ; -- done":                 "  select 1 ",
		"(SELECT 1) UNION (SELECT 2)":          "(SELECT 1) UNION (SELECT 2)",
		"WITH x AS (SELECT 1) SELECT * FROM x": "WITH x AS (SELECT 1) SELECT * FROM x",
		"VALUES (1)":                           "VALUES (1)",
		"TABLE t":                              "TABLE t",
		"EXPLAIN SELECT 1":                     "",
		"SELECT ';'":                           "SELECT ';'",
	} {
		got, ok := cappedBody(q)
		if got != want || ok != (want != "") {
			t.Errorf("cappedBody(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
}
