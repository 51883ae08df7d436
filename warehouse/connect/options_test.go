package connect

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/warehouse"
)

func TestWithStartupParam(t *testing.T) {
	for _, c := range []struct{ dsn, want string }{
		{"postgres://me@h:5432/db", "postgres://me@h:5432/db?role=r%27o"},
		{"postgres://me@h/db?sslmode=disable&role=old", "postgres://me@h/db?role=r%27o&sslmode=disable"},
		{"host=h dbname=db", `host=h dbname=db role='r\'o'`},
	} {
		if got := withStartupParam(c.dsn, "role", "r'o"); got != c.want {
			t.Errorf("withStartupParam(%q) = %q, want %q", c.dsn, got, c.want)
		}
	}
}

func TestRoleOnlyForPostgres(t *testing.T) {
	_, err := OpenWith(context.Background(), tempDB(t), Options{Role: "reader"})
	if !errors.Is(err, warehouse.ErrBadInput) {
		t.Errorf("--role on SQLite: %v, want bad input", err)
	}
}

// --role makes a superuser's login act as a role that can only read: the
// connection is then not privileged, and statements run as that role.
func TestRoleSwitchesBeforeAnythingRuns(t *testing.T) {
	ctx := context.Background()
	server := pgscratch.Server(t)
	b := make([]byte, 6)
	rand.Read(b)
	role := "discover_role_" + hex.EncodeToString(b)
	// Registered before the database, so it runs after the database (which
	// holds the role's grant) is dropped.
	t.Cleanup(func() {
		db, err := sql.Open("pgx", server)
		if err != nil {
			t.Error(err)
			return
		}
		defer db.Close()
		if _, err := db.Exec("DROP ROLE IF EXISTS " + role); err != nil {
			t.Errorf("drop role %s: %v", role, err)
		}
	})
	dsn, _, admin := pgscratch.Database(t, server, "discover_role")
	for _, q := range []string{
		"CREATE TABLE t (id int)", "INSERT INTO t VALUES (1)",
		"CREATE ROLE " + role + " NOLOGIN", "GRANT SELECT ON t TO " + role,
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	super, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer super.Close()
	if p, err := super.(warehouse.PrivilegeReporter).Privileges(ctx); err != nil || !p.Privileged() {
		t.Fatalf("the superuser's login: %+v, %v", p, err)
	}

	src, err := OpenWith(ctx, dsn, Options{Role: role})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	p, err := src.(warehouse.PrivilegeReporter).Privileges(ctx)
	if err != nil || p.Privileged() || p.Role != role {
		t.Errorf("with --role: %+v, %v", p, err)
	}
	res, err := src.Query(ctx, "SELECT count(*) AS n FROM t", warehouse.QueryOptions{})
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("a read as the role: %v", err)
	}

	if _, err := OpenWith(ctx, dsn, Options{Role: "no_such_role_" + hex.EncodeToString(b)}); err == nil {
		t.Error("an unknown role was accepted")
	}
}
