package main

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/pgscratch"
)

// TestPostgresRunIsReadOnlyAndKeepsThePassword (issue 9): a discovery run
// on PostgreSQL, logged in with a password, changes no counter of written
// rows in its database, and its password (a canary) appears in no output:
// stdout, stderr, progress, report files, catalog.
func TestPostgresRunIsReadOnlyAndKeepsThePassword(t *testing.T) {
	ctx := context.Background()
	dsn, name, admin, role := scratchPostgres(t, "safety", "canary")
	const canary = "Canary-7f3a9-pw"
	for _, s := range []string{
		// Autovacuum off: its ANALYZE of the fresh tables rewrites their
		// pg_statistic rows, a write the counters would blame on discovery.
		`CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL, country CHAR(2), joined DATE) WITH (autovacuum_enabled = false)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), amount NUMERIC(10,2), status TEXT, placed TIMESTAMP) WITH (autovacuum_enabled = false)`,
		`INSERT INTO customers SELECT i, 'user' || i || '@example.com', (ARRAY['FR','DE','US','JP'])[1 + i % 4], DATE '2020-01-01' + i FROM generate_series(1, 2000) i`,
		`INSERT INTO orders SELECT i, 1 + i % 2000, (i % 500) + 0.99, (ARRAY['new','paid','shipped'])[1 + i % 3], TIMESTAMP '2024-01-01' + i * INTERVAL '17 minutes' FROM generate_series(1, 20000) i`,
		`ANALYZE`,
		// A member of the password group must log in with its password
		// (.ci/start-servers puts a scram-sha-256 rule first for it).
		`CREATE ROLE ` + role + ` LOGIN PASSWORD '` + canary + `' IN ROLE discover_password_login`,
		`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ` + role,
	} {
		if _, err := admin.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(role, canary)

	before := writeCounters(t, admin, name)
	out := t.TempDir()
	res := run(t, "--db", u.String(), "--out", out, "--progress", "plain")
	if res.code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", res.code, res.stderr)
	}
	after := writeCounters(t, admin, name)
	if before != after {
		t.Errorf("write counters changed during discovery:\nbefore %s\nafter  %s", before, after)
	}
	t.Logf("counters: %s", after)
	// The control: one written row moves them.
	if _, err := admin.ExecContext(ctx, `UPDATE orders SET status = 'x' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	if moved := writeCounters(t, admin, name); moved == after {
		t.Errorf("an UPDATE left the write counters at %s: they cannot show a write", moved)
	}
	_, r := readReport(t, out)
	if len(r.Tables) != 2 || len(r.Relationships) == 0 {
		t.Errorf("report: %d tables, %d relationships", len(r.Tables), len(r.Relationships))
	}

	// The canary appears nowhere, whether spelled out or URL-encoded.
	for _, where := range []struct{ name, text string }{{"stdout", res.stdout}, {"stderr", res.stderr}} {
		if strings.Contains(where.text, canary) {
			t.Errorf("%s shows the password", where.name)
		}
	}
	files := 0
	filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), canary) || strings.Contains(string(b), url.QueryEscape(canary)) {
			t.Errorf("%s holds the password", path)
		}
		return nil
	})
	if files < 4 {
		t.Errorf("%d files written, want report.json, .md, .html and the catalog", files)
	}
}

// writeCounters reads what PostgreSQL counted of rows written in database
// db, once the counters have settled (pgscratch.Settled).
func writeCounters(t *testing.T, admin *sql.DB, db string) string {
	t.Helper()
	return pgscratch.Settled(func() string {
		var s string
		err := admin.QueryRow(`SELECT pg_stat_clear_snapshot()::text || format('db ins %s upd %s del %s; tables ins %s upd %s del %s',
				d.tup_inserted, d.tup_updated, d.tup_deleted,
				(SELECT COALESCE(SUM(n_tup_ins), 0) FROM pg_stat_user_tables),
				(SELECT COALESCE(SUM(n_tup_upd), 0) FROM pg_stat_user_tables),
				(SELECT COALESCE(SUM(n_tup_del), 0) FROM pg_stat_user_tables))
			FROM pg_stat_database d WHERE d.datname = $1`, db).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// scratchPostgres creates a database of its own for a test on the test
// server (pgscratch.Database), opens an admin connection to it and names a
// role for the test to create; the database and the role are dropped when
// the test ends.
func scratchPostgres(t *testing.T, prefix, rolePrefix string) (dsn, name string, admin *sql.DB, role string) {
	t.Helper()
	server := serverDSN(t, "DISCOVER_TEST_POSTGRES")
	// Registered before the database's clean-up, so run after it: the role
	// cannot be dropped while the database holds its privileges.
	t.Cleanup(func() {
		if role == "" {
			return
		}
		if a, err := sql.Open("pgx", server); err == nil {
			a.Exec("DROP ROLE IF EXISTS " + role)
			a.Close()
		}
	})
	dsn, name, admin = pgscratch.Database(t, server, prefix)
	role = rolePrefix + "_" + name
	return dsn, name, admin, role
}
