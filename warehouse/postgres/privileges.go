package postgres

import (
	"context"
	"fmt"
	"sort"

	"github.com/jackc/pgx/v5"

	"github.com/discover-db/discover/warehouse"
)

var _ warehouse.PrivilegeReporter = (*Source)(nil)

// riskyRoles are the predefined roles whose members can reach beyond the
// database's tables, with what each allows.
var riskyRoles = []struct{ name, why string }{
	{"pg_read_server_files", "reads any file the server can read"},
	{"pg_write_server_files", "writes files on the database host"},
	{"pg_execute_server_program", "runs programs on the database host"},
	{"pg_signal_backend", "cancels or terminates other sessions"},
}

// riskyExtensions are extensions that, once installed, let SQL open
// connections, reach the network or the file system, or run code outside
// the database's own functions.
var riskyExtensions = map[string]string{
	"dblink":       "opens connections to other databases, including this one as another role",
	"postgres_fdw": "opens connections to other PostgreSQL servers",
	"mysql_fdw":    "opens connections to MySQL servers",
	"oracle_fdw":   "opens connections to Oracle servers",
	"tds_fdw":      "opens connections to SQL Server",
	"file_fdw":     "reads server files and program output as tables",
	"adminpack":    "writes and removes server files",
	"pg_cron":      "schedules SQL to run later",
	"http":         "makes HTTP requests from the server",
	"pgsql_http":   "makes HTTP requests from the server",
	"plsh":         "runs shell commands",
}

// Privileges reports what the connection's role could do beyond reading:
// superuser, the predefined roles that reach files, programs and other
// sessions, and the installed extensions and untrusted languages that open
// connections or run code. It is asked once; later calls return the first
// answer.
func (s *Source) Privileges(ctx context.Context) (warehouse.Privileges, error) {
	return s.privs.Get(func() (warehouse.Privileges, error) { return s.privileges(ctx) })
}

func (s *Source) privileges(ctx context.Context) (warehouse.Privileges, error) {
	var p warehouse.Privileges
	err := s.readOnly(ctx, DefaultTimeout, func(tx pgx.Tx) error {
		var super, createRole, replication, bypassRLS bool
		err := tx.QueryRow(ctx, `SELECT current_user, r.rolsuper, r.rolcreaterole, r.rolreplication, r.rolbypassrls
			FROM pg_catalog.pg_roles r WHERE r.rolname = current_user`).Scan(&p.Role, &super, &createRole, &replication, &bypassRLS)
		if err != nil {
			return fmt.Errorf("role attributes: %w", err)
		}
		if super {
			p.Risky = append(p.Risky, "superuser (bypasses every permission check: reads and writes server files, runs programs, signals sessions)")
		}
		if replication {
			p.Risky = append(p.Risky, "REPLICATION attribute (creates replication slots and streams the whole server's changes)")
		}
		if createRole {
			p.Risky = append(p.Risky, "CREATEROLE attribute (creates roles and grants itself membership in others)")
		}
		if bypassRLS {
			p.Risky = append(p.Risky, "BYPASSRLS attribute (reads rows that row-level security hides)")
		}
		for _, r := range riskyRoles {
			// The role may not exist on an old server: a CASE keeps
			// pg_has_role from being evaluated for a name that does not.
			var member bool
			err := tx.QueryRow(ctx, `SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = $1)
				THEN pg_catalog.pg_has_role(current_user, $1, 'MEMBER') ELSE false END`, r.name).Scan(&member)
			if err != nil {
				return fmt.Errorf("membership of %s: %w", r.name, err)
			}
			if member && !super {
				p.Risky = append(p.Risky, fmt.Sprintf("member of %s (%s)", r.name, r.why))
			}
		}
		// An extension counts when the role may call one of its functions
		// (PUBLIC may, unless an administrator revoked it).
		exts, err := names(ctx, tx, `SELECT e.extname FROM pg_catalog.pg_extension e
			WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid = d.objid
				WHERE d.classid = 'pg_catalog.pg_proc'::regclass AND d.refclassid = 'pg_catalog.pg_extension'::regclass
				AND d.refobjid = e.oid AND pg_catalog.has_function_privilege(p.oid, 'EXECUTE'))`)
		if err != nil {
			return fmt.Errorf("extensions: %w", err)
		}
		for _, e := range exts {
			if why, ok := riskyExtensions[e]; ok {
				p.Risky = append(p.Risky, fmt.Sprintf("extension %s installed (%s)", e, why))
			}
		}
		// Only a role that may use an untrusted language can write code in it.
		langs, err := names(ctx, tx, `SELECT lanname FROM pg_catalog.pg_language
			WHERE NOT lanpltrusted AND lanname NOT IN ('internal', 'c')
			AND pg_catalog.has_language_privilege(lanname, 'USAGE')`)
		if err != nil {
			return fmt.Errorf("languages: %w", err)
		}
		for _, l := range langs {
			p.Risky = append(p.Risky, fmt.Sprintf("untrusted language %s installed (functions in it run code on the database host)", l))
		}
		return nil
	})
	if err != nil {
		return warehouse.Privileges{}, fmt.Errorf("postgres: privileges: %w", err)
	}
	if p.Privileged() {
		p.Hint = "Connect as a role that can only read, e.g. CREATE ROLE discover_reader LOGIN PASSWORD '…'; " +
			"GRANT pg_read_all_data TO discover_reader; or pass --role NAME to switch to such a role, " +
			"or --allow-privileged to let the allow-list guard alone stand between untrusted SQL and the database"
	}
	return p, nil
}

func names(ctx context.Context, tx pgx.Tx, q string) ([]string, error) {
	rows, err := tx.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	sort.Strings(out)
	return out, err
}
