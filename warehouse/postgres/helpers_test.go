package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/discover-db/discover/warehouse"
)

// serverDSN is the test server's DSN: a superuser on a database the tests
// may use as their base. Each test creates and drops its own database.
func serverDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("DISCOVER_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_POSTGRES not set: .ci/run starts the servers")
		}
		t.Skip(`DISCOVER_TEST_POSTGRES not set; run eval "$(.ci/start-servers)" first`)
	}
	return dsn
}

// withDB returns dsn pointing at database name.
func withDB(t testing.TB, dsn, name string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// withUser returns dsn logging in as user with password.
func withUser(t *testing.T, dsn, user, password string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(user, password)
	return u.String()
}

func uniqueName(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func connect(t testing.TB, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func mustExec(t testing.TB, c *pgx.Conn, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := c.Exec(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// testDB is a database of its own for one test, dropped when it ends.
type testDB struct {
	name  string
	dsn   string    // superuser DSN of the test database
	admin *pgx.Conn // superuser connection to the server's base database
}

func newDB(t testing.TB, stmts ...string) *testDB {
	t.Helper()
	base := serverDSN(t)
	admin := connect(t, base)
	db := &testDB{name: uniqueName("test_"), admin: admin}
	db.dsn = withDB(t, base, db.name)
	mustExec(t, admin,
		`CREATE DATABASE `+QuoteIdent(db.name),
		// Fixed, so timestamptz values read the same on any server.
		`ALTER DATABASE `+QuoteIdent(db.name)+` SET timezone = 'UTC'`)
	t.Cleanup(func() {
		// FORCE ends sessions a failed test left behind.
		admin.Exec(context.Background(), `DROP DATABASE IF EXISTS `+QuoteIdent(db.name)+` WITH (FORCE)`)
	})
	if len(stmts) > 0 {
		c := connect(t, db.dsn)
		mustExec(t, c, stmts...)
		c.Close(context.Background())
	}
	return db
}

// exec runs statements as superuser inside the test database.
func (db *testDB) exec(t *testing.T, stmts ...string) {
	t.Helper()
	c := connect(t, db.dsn)
	mustExec(t, c, stmts...)
	c.Close(context.Background())
}

// role creates a login role in passwordGroup (so the server checks its
// password) and runs, as superuser in the test database, the statements
// grants returns for the role's quoted name.
func (db *testDB) role(t *testing.T, password string, grants func(role string) []string) string {
	t.Helper()
	ensurePasswordAuth(t, db.admin)
	name := uniqueName("reader_")
	mustExec(t, db.admin, `CREATE ROLE `+QuoteIdent(name)+` LOGIN PASSWORD '`+password+`' IN ROLE `+passwordGroup)
	t.Cleanup(func() {
		// The database holds grants to the role: it goes first.
		ctx := context.Background()
		db.admin.Exec(ctx, `DROP DATABASE IF EXISTS `+QuoteIdent(db.name)+` WITH (FORCE)`)
		db.admin.Exec(ctx, `DROP ROLE IF EXISTS `+QuoteIdent(name))
	})
	db.exec(t, grants(QuoteIdent(name))...)
	return name
}

// passwordGroup's members must log in with a password over TCP. The test
// server trusts every local connection (.ci/start-servers), so a wrong
// password would be accepted; ensurePasswordAuth puts a scram-sha-256
// rule for this group in front of the trust rules, once per server. Other
// roles, and so other tests, are unaffected.
const passwordGroup = "discover_password_login"

func ensurePasswordAuth(t *testing.T, admin *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	var super bool
	if err := admin.QueryRow(ctx, `SELECT rolsuper FROM pg_roles WHERE rolname = current_user`).Scan(&super); err != nil || !super {
		t.Skipf("the test role must be a superuser to require passwords (%v)", err)
	}
	// Tests in several packages and processes may get here at once.
	mustExec(t, admin, `SELECT pg_advisory_lock(20240131)`)
	defer admin.Exec(ctx, `SELECT pg_advisory_unlock(20240131)`)

	var exists bool
	if err := admin.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)`, passwordGroup).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if !exists {
		mustExec(t, admin, `CREATE ROLE `+passwordGroup+` NOLOGIN`)
	}
	var ruled bool
	if err := admin.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_hba_file_rules
		WHERE $1 = ANY (user_name) AND auth_method = 'scram-sha-256')`, "+"+passwordGroup).Scan(&ruled); err != nil {
		t.Fatal(err)
	}
	if ruled {
		return
	}
	var file, content string
	if err := admin.QueryRow(ctx, `SELECT current_setting('hba_file'), pg_read_file(current_setting('hba_file'))`).Scan(&file, &content); err != nil {
		t.Fatal(err)
	}
	content = "# added by discover's warehouse/postgres tests: members of " + passwordGroup + " need a password\n" +
		"host all +" + passwordGroup + " 127.0.0.1/32 scram-sha-256\n" +
		"host all +" + passwordGroup + " ::1/128 scram-sha-256\n" + content
	// lo_export writes the file as the server's user; the large object
	// itself is rolled back.
	tx, err := admin.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	var lo uint32
	if err := tx.QueryRow(ctx, `SELECT lo_from_bytea(0, convert_to($1, 'UTF8'))`, content).Scan(&lo); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT lo_export($1, $2)`, lo, file); err != nil {
		t.Fatal(err)
	}
	tx.Rollback(ctx)
	// The postmaster reloads asynchronously: a test that needs the rule in
	// force polls for it.
	mustExec(t, admin, `SELECT pg_reload_conf()`)
}

// unguarded is the source without its allow-list: what reaches the
// server's own read-only transaction when the guard lets a statement
// through.
type unguarded struct{ *Source }

func (unguarded) Admit(context.Context, string) error { return nil }

// query is Query without the guard, to show that the server refuses a
// write the guard would have caught.
func (s *Source) query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	return warehouse.Query(ctx, unguarded{s}, q, opts)
}
