package mysql

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.PrivilegeReporter = (*Source)(nil)

// riskyGlobal are the server-wide privileges that reach beyond the
// database's tables, with what each allows, the gravest first.
var riskyGlobal = []struct{ name, why string }{
	{"FILE", "reads and writes files on the database host: LOAD_FILE, SELECT … INTO OUTFILE, LOAD DATA"},
	{"SUPER", "changes global settings, kills any session, writes despite read_only"},
	{"PROCESS", "sees every session's statements, passwords in them included"},
	{"SHUTDOWN", "stops the server"},
	{"CREATE USER", "creates and changes users"},
	{"GRANT OPTION", "grants its privileges to others"},
	{"RELOAD", "flushes logs, caches and privileges"},
	{"CONNECTION ADMIN", "kills other sessions"},
	{"READ_ONLY ADMIN", "writes despite read_only"},
	{"SYSTEM_VARIABLES_ADMIN", "changes global settings"},
	{"BINLOG ADMIN", "purges the binary log"},
	{"REPLICATION SLAVE", "streams every change of the server"},
	{"REPLICATION CLIENT", "reads the replication state"},
}

// writePrivileges are the privileges that change data, structure or code.
var writePrivileges = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "CREATE": true, "DROP": true, "ALTER": true,
	"INDEX": true, "CREATE VIEW": true, "CREATE ROUTINE": true, "ALTER ROUTINE": true,
	"TRIGGER": true, "EVENT": true, "LOCK TABLES": true, "CREATE TEMPORARY TABLES": true,
	"EXECUTE": true, "REFERENCES": true, "DELETE HISTORY": true, "CREATE TABLESPACE": true,
}

// Privileges reports what the connection's user could do beyond reading:
// FILE, SUPER, PROCESS and the other administrative privileges, and any
// privilege that writes, at the server, database or table level. It is
// asked once; later calls return the first answer.
func (s *Source) Privileges(ctx context.Context) (warehouse.Privileges, error) {
	return s.privs.Get(func() (warehouse.Privileges, error) { return s.privileges(ctx) })
}

func (s *Source) privileges(ctx context.Context) (warehouse.Privileges, error) {
	var p warehouse.Privileges
	// information_schema names the grantee as 'user'@'host'; built with
	// single quotes only, so the text reads alike under any sql_mode.
	const grantee = `CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1), '''@''', SUBSTRING_INDEX(CURRENT_USER(), '@', -1), '''')`
	var global, schema, table []string
	err := s.readOnly(ctx, noLimits, func(ss *session) error {
		if err := ss.tx.QueryRowContext(ctx, "SELECT CURRENT_USER()").Scan(&p.Role); err != nil {
			return fmt.Errorf("current user: %w", err)
		}
		var err error
		global, err = strs(ctx, ss, `SELECT PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = `+grantee)
		if err != nil {
			return fmt.Errorf("global privileges: %w", err)
		}
		schema, err = strs(ctx, ss, `SELECT PRIVILEGE_TYPE FROM information_schema.SCHEMA_PRIVILEGES
			WHERE GRANTEE = `+grantee+` AND TABLE_SCHEMA = DATABASE()`)
		if err != nil {
			return fmt.Errorf("database privileges: %w", err)
		}
		table, err = strs(ctx, ss, `SELECT DISTINCT PRIVILEGE_TYPE FROM information_schema.TABLE_PRIVILEGES
			WHERE GRANTEE = `+grantee+` AND TABLE_SCHEMA = DATABASE()`)
		if err != nil {
			return fmt.Errorf("table privileges: %w", err)
		}
		return nil
	})
	if err != nil {
		return warehouse.Privileges{}, fmt.Errorf("mysql: privileges: %w", err)
	}
	for _, r := range riskyGlobal {
		if slices.Contains(global, r.name) {
			p.Risky = append(p.Risky, fmt.Sprintf("%s privilege (%s)", r.name, r.why))
		}
	}
	for _, scope := range []struct {
		where string
		privs []string
	}{{"on every database", global}, {"on this database", schema}, {"on some of its tables", table}} {
		var w []string
		for _, g := range scope.privs {
			if writePrivileges[g] {
				w = append(w, g)
			}
		}
		if len(w) > 0 {
			sort.Strings(w)
			p.Risky = append(p.Risky, fmt.Sprintf("write privileges %s (%s)", scope.where, strings.Join(w, ", ")))
		}
	}
	if p.Privileged() {
		p.Hint = "Connect as a user that can only read, e.g. CREATE USER 'discover_reader'@'%' IDENTIFIED BY '…'; " +
			"GRANT SELECT, SHOW VIEW ON shop.* TO 'discover_reader'@'%'; " +
			"or pass --allow-privileged to let the allow-list guard alone stand between untrusted SQL and the database"
	}
	return p, nil
}

func strs(ctx context.Context, ss *session, q string) ([]string, error) {
	rows, err := ss.tx.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return out, rows.Err()
}
