package postgres

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/warehouse"
)

// The privileges a connection reports decide whether untrusted SQL may run
// on it: a superuser is privileged, a role that can only read is not, and
// each risky membership and installed extension is named.
func TestPrivileges(t *testing.T) {
	ctx := context.Background()
	server := pgscratch.Server(t)
	reader, member := uniqueName("discover_reader_"), uniqueName("discover_files_")
	// Registered before the database, so it runs after the database (which
	// holds the roles' grants) is dropped.
	t.Cleanup(func() {
		c := connect(t, server)
		defer c.Close(ctx)
		for _, r := range []string{reader, member} {
			if _, err := c.Exec(ctx, "DROP ROLE IF EXISTS "+QuoteIdent(r)); err != nil {
				t.Errorf("drop role %s: %v", r, err)
			}
		}
	})
	dsn, name, admin := pgscratch.Database(t, server, "discover_privs")
	for _, q := range []string{
		"CREATE TABLE t (id int PRIMARY KEY, v text)",
		"CREATE ROLE " + QuoteIdent(reader) + " LOGIN",
		"CREATE ROLE " + QuoteIdent(member) + " LOGIN IN ROLE pg_read_server_files, pg_signal_backend",
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, r := range []string{reader, member} {
		for _, q := range []string{"GRANT CONNECT ON DATABASE " + QuoteIdent(name) + " TO ", "GRANT SELECT ON t TO "} {
			if _, err := admin.Exec(q + QuoteIdent(r)); err != nil {
				t.Fatal(err)
			}
		}
	}
	privs := func(t *testing.T, user string) warehouse.Privileges {
		t.Helper()
		d := dsn
		if user != "" {
			d = withUser(t, dsn, user, "")
		}
		s, err := Open(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		p, err := s.Privileges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := s.Privileges(ctx)
		if !slices.Equal(p.Risky, again.Risky) {
			t.Errorf("a second call answered differently: %v, then %v", p.Risky, again.Risky)
		}
		return p
	}
	has := func(p warehouse.Privileges, part string) bool {
		return slices.ContainsFunc(p.Risky, func(r string) bool { return strings.Contains(r, part) })
	}

	t.Run("superuser", func(t *testing.T) {
		p := privs(t, "")
		if !p.Privileged() || !has(p, "superuser") || p.Role != "postgres" {
			t.Errorf("superuser: %+v", p)
		}
		if !strings.Contains(p.Hint, "--role") || !strings.Contains(p.Hint, "--allow-privileged") {
			t.Errorf("no advice on connecting safely: %q", p.Hint)
		}
		err := warehouse.PrivilegedError(p)
		if !errors.Is(err, warehouse.ErrPrivileged) || !strings.Contains(err.Error(), "superuser") {
			t.Errorf("refusal: %v", err)
		}
	})
	t.Run("reader", func(t *testing.T) {
		if p := privs(t, reader); p.Privileged() || p.Role != reader {
			t.Errorf("a role that can only read: %+v", p)
		}
	})
	t.Run("member of file and signal roles", func(t *testing.T) {
		p := privs(t, member)
		if !has(p, "member of pg_read_server_files") || !has(p, "member of pg_signal_backend") || has(p, "superuser") {
			t.Errorf("member: %v", p.Risky)
		}
	})
	t.Run("dblink installed", func(t *testing.T) {
		if _, err := admin.Exec("CREATE EXTENSION dblink"); err != nil {
			t.Fatalf("dblink (in Debian's postgresql package): %v", err)
		}
		p := privs(t, reader)
		if !has(p, "extension dblink") {
			t.Errorf("a reader that may call dblink: %v", p.Risky)
		}
		// Once PUBLIC may no longer call it, the reader cannot use it.
		if _, err := admin.Exec("REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC"); err != nil {
			t.Fatal(err)
		}
		if p := privs(t, reader); p.Privileged() {
			t.Errorf("dblink revoked from PUBLIC: %v", p.Risky)
		}
	})
}
