package spark

import (
	"errors"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

func TestParseDSN(t *testing.T) {
	cases := []struct {
		dsn                          string
		host, user, db, auth, passwd string
		tls                          bool
	}{
		{"spark://h", "h:10000", "anonymous", "default", "NONE", "", false},
		{"spark://alice@h:10009/sales", "h:10009", "alice", "sales", "NONE", "", false},
		{"sparks://alice:pw@h/sales", "h:10000", "alice", "sales", "NONE", "pw", true},
		{"spark://alice:pw@h/sales?tls=true&auth=LDAP", "h:10000", "alice", "sales", "LDAP", "pw", true},
		{"spark://alice:pw@h/sales?cleartext_password=true", "h:10000", "alice", "sales", "NONE", "pw", false},
		{"spark://h/?auth=nosasl", "h:10000", "anonymous", "default", "NOSASL", "", false},
		{"sparks://h?tls=false", "h:10000", "anonymous", "default", "NONE", "", true},
		{"spark://[::1]:41000/db", "[::1]:41000", "anonymous", "db", "NONE", "", false},
	}
	for _, c := range cases {
		got, err := parseDSN(c.dsn)
		if err != nil {
			t.Errorf("%s: %v", c.dsn, err)
			continue
		}
		if got.Host != c.host || got.User != c.user || got.Database != c.db || got.Auth != c.auth ||
			got.Password != c.passwd || (got.TLS != nil) != c.tls {
			t.Errorf("%s: %+v", c.dsn, got.Config)
		}
	}
}

func TestParseDSNBad(t *testing.T) {
	cases := []struct{ dsn, want string }{
		{"spark:///db", "no host"},
		{"spark://h/a/b", "too many path segments"},
		{"spark://h/db?timeout=5", `unknown parameter "timeout"`},
		{"spark://h/db?tls=maybe", "tls must be true or false"},
		{"spark://h/db?auth=KERBEROS", `auth "KERBEROS"; want NONE, LDAP or NOSASL`},
		{"spark://u:secret1@h/db", "a password needs TLS"},
		{"spark://u:secret1@h/db?auth=NOSASL&tls=true", "auth=NOSASL sends no password"},
		{"sparks://u@h/db?auth=LDAP", "auth=LDAP needs a password"},
		{"spark://h:0/db", `bad port "0"`},
		{"spark://h:99999/db", `bad port "99999"`},
		{"spark://u:secret1@h:port/db", "bad DSN"},
		{"mysql://h/db", "want spark://"},
	}
	for _, c := range cases {
		_, err := parseDSN(c.dsn)
		if err == nil || !errors.Is(err, warehouse.ErrBadInput) || !strings.Contains(err.Error(), c.want) ||
			strings.Contains(err.Error(), "secret1") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line of bad input with %q and no password", c.dsn, err, c.want)
		}
	}
}

func TestBounded(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT 1", "SELECT * FROM (\nSELECT 1\n) discover_bounded LIMIT 11"},
		{"with a AS (SELECT 1) SELECT * FROM a -- c", "SELECT * FROM (\nwith a AS (SELECT 1) SELECT * FROM a -- c\n) discover_bounded LIMIT 11"},
		{"/* c */ VALUES (1)", "SELECT * FROM (\n/* c */ VALUES (1)\n) discover_bounded LIMIT 11"},
		{"SHOW TABLES", "SHOW TABLES"},
		{"DESCRIBE t", "DESCRIBE t"},
		{"EXPLAIN SELECT 1", "EXPLAIN SELECT 1"},
	}
	for _, c := range cases {
		if got := bounded(c.in, 10); got != c.want {
			t.Errorf("bounded(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
