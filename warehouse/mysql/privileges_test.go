package mysql

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/warehouse"
)

// The privileges a connection reports decide whether untrusted SQL may run
// on it: root is privileged, a user with SELECT only is not, and FILE and
// each write privilege are named.
func TestPrivileges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	admin := adminDB(t, "")
	db, _, _ := fixture(t, admin)
	user := func(grants ...string) string {
		b := make([]byte, 6)
		rand.Read(b)
		name := "p_" + hex.EncodeToString(b)
		for _, host := range []string{"%", "localhost", "127.0.0.1"} {
			u := "'" + name + "'@'" + host + "'"
			exec(t, admin, "CREATE USER "+u+" IDENTIFIED BY 'x'")
			t.Cleanup(func() {
				if _, err := admin.Exec("DROP USER IF EXISTS " + u); err != nil {
					t.Errorf("drop user %s: %v", u, err)
				}
			})
			for _, g := range grants {
				exec(t, admin, "GRANT "+g+" TO "+u)
			}
		}
		return name
	}
	privs := func(t *testing.T, dsn string) warehouse.Privileges {
		t.Helper()
		p, err := open(t, dsn).Privileges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	has := func(p warehouse.Privileges, part string) bool {
		return slices.ContainsFunc(p.Risky, func(r string) bool { return strings.Contains(r, part) })
	}
	qdb := QuoteIdent(db)

	root := privs(t, rootDSN(t, db))
	if !root.Privileged() || !has(root, "FILE privilege") || !has(root, "SUPER privilege") || !has(root, "write privileges on every database") {
		t.Errorf("root: %v", root.Risky)
	}
	if !strings.HasPrefix(root.Risky[0], "FILE") {
		t.Errorf("the gravest privilege does not come first: %v", root.Risky)
	}
	if err := warehouse.PrivilegedError(root); !errors.Is(err, warehouse.ErrPrivileged) || !strings.Contains(err.Error(), "and ") {
		t.Errorf("refusal for root: %v", err)
	}

	reader := user("SELECT, SHOW VIEW ON " + qdb + ".*")
	if p := privs(t, dsnFor(t, db, reader, "x")); p.Privileged() || !strings.HasPrefix(p.Role, reader+"@") {
		t.Errorf("a user that can only read: %+v", p)
	}

	files := user("SELECT ON "+qdb+".*", "FILE ON *.*")
	if p := privs(t, dsnFor(t, db, files, "x")); !has(p, "FILE privilege") || len(p.Risky) != 1 {
		t.Errorf("a reader with FILE: %v", p.Risky)
	}

	writer := user("SELECT, INSERT ON "+qdb+".*", "UPDATE ON "+qdb+".customer")
	p := privs(t, dsnFor(t, db, writer, "x"))
	if !has(p, "write privileges on this database (INSERT)") || !has(p, "write privileges on some of its tables (UPDATE)") {
		t.Errorf("a user that may write: %v", p.Risky)
	}
}
