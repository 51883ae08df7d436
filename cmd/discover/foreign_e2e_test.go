package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/report"
)

// TestPostgresForeignTablesEndToEnd: PostgreSQL's foreign tables (relkind
// 'f') are listed as tables of kind foreign table. One that reads (a
// postgres_fdw table over this very server) is profiled like any table,
// without the TABLESAMPLE PostgreSQL refuses on it and without index
// advice; one whose rows cannot be read (a file_fdw table over a file
// that is not there) is reported as not read, with the server's reason,
// and the run is incomplete (exit 4) rather than failed. The reason is
// the wrapper's whole message, the file's path included, and for a
// postgres_fdw table whose user mapping holds a wrong password the remote
// server's answer (the error's DETAIL), never the password.
func TestPostgresForeignTablesEndToEnd(t *testing.T) {
	dsn, name, admin, role := scratchPostgres(t, "foreign", "fdw")
	const mappingPassword = "Wr0ng-'mapping'-s3cret"
	var port string
	if err := admin.QueryRow(`SELECT current_setting('port')`).Scan(&port); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE EXTENSION postgres_fdw`,
		`CREATE EXTENSION file_fdw`,
		`CREATE TABLE src (id int PRIMARY KEY, name text NOT NULL)`,
		`INSERT INTO src SELECT i, 'n' || i FROM generate_series(1, 300) i`,
		`CREATE SERVER loop FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '` + port + `', dbname '` + name + `')`,
		`CREATE USER MAPPING FOR CURRENT_USER SERVER loop OPTIONS (user 'postgres')`,
		`CREATE FOREIGN TABLE remote_src (id int NOT NULL, name text) SERVER loop OPTIONS (table_name 'src')`,
		`COMMENT ON FOREIGN TABLE remote_src IS 'src, through the loopback server'`,
		`CREATE SERVER files FOREIGN DATA WRAPPER file_fdw`,
		`CREATE FOREIGN TABLE missing_file (a int, b text) SERVER files OPTIONS (filename '/nonexistent/discover/missing.csv', format 'csv')`,
		// A member of the password group must log in with its password
		// (.ci/start-servers puts a scram-sha-256 rule first for it); the
		// mapping gives another.
		`CREATE ROLE ` + role + ` LOGIN PASSWORD 'the-right-one' IN ROLE discover_password_login`,
		`CREATE SERVER badloop FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '` + port + `', dbname '` + name + `')`,
		`CREATE USER MAPPING FOR CURRENT_USER SERVER badloop OPTIONS (user '` + role + `', password '` + strings.ReplaceAll(mappingPassword, "'", "''") + `')`,
		`CREATE FOREIGN TABLE bad_login (id int) SERVER badloop OPTIONS (table_name 'src')`,
		`ANALYZE src`,
	} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	out := t.TempDir()
	res := run(t, "--db", dsn, "--out", out, "--format", "json,md,html", "--max-iterations", "10",
		"--sample-rows", "100")
	if res.code != 4 {
		t.Fatalf("exit %d, want 4 (incomplete: missing_file cannot be read): %s", res.code, res.stderr)
	}
	_, r := readReport(t, out) // validates against report/schema.json
	tables := map[string]report.Table{}
	for _, tb := range r.Tables {
		tables[tb.Name] = tb
	}
	remote, missing := tables["remote_src"], tables["missing_file"]
	if remote.Kind != "table" || !remote.Foreign || remote.Unread != nil || remote.Comment != "src, through the loopback server" {
		t.Errorf("remote_src = %+v, want a foreign table, read", remote)
	}
	if remote.RowCount == nil || *remote.RowCount != 300 {
		t.Errorf("remote_src rows = %v, want 300", remote.RowCount)
	}
	for _, c := range remote.Columns {
		if c.NullFraction == nil || c.DistinctCount == nil {
			t.Errorf("remote_src.%s not profiled: %+v", c.Name, c)
		}
	}
	if !missing.Foreign || missing.Unread == nil || !strings.Contains(missing.Unread.Reason, "No such file or directory") {
		t.Errorf("missing_file = %+v, want a foreign table not read, saying why", missing)
	}
	if want := `could not open file "/nonexistent/discover/missing.csv" for reading: No such file or directory (SQLSTATE 58P01)`; missing.Unread == nil || missing.Unread.Reason != want {
		t.Errorf("missing_file's reason %+v, want %q", missing.Unread, want)
	}
	bad := tables["bad_login"]
	if want := `could not connect to server "badloop": connection to server at "127.0.0.1", port ` + port +
		` failed: FATAL: password authentication failed for user "` + role + `" (SQLSTATE 08001)`; !bad.Foreign || bad.Unread == nil || bad.Unread.Reason != want {
		t.Errorf("bad_login = %+v, want a foreign table not read, because %q", bad.Unread, want)
	}
	for _, secret := range []string{mappingPassword, "s3cret", "the-right-one"} {
		if strings.Contains(res.stderr, secret) {
			t.Errorf("stderr holds %q", secret)
		}
		err := filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err == nil && strings.Contains(string(b), secret) {
				t.Errorf("%s holds %q", path, secret)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if src := tables["src"]; src.Foreign || src.Unread != nil {
		t.Errorf("src = %+v, want a plain table, read", src)
	}
	// No index, partitioning or sampling advice: a foreign table takes no
	// index, and TABLESAMPLE refuses it. An example query is fine.
	for _, rec := range r.Recommendations {
		if strings.Contains(rec.SQL, "remote_src") && rec.Kind != "example_query" {
			t.Errorf("advice on a foreign table: %+v", rec)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "tables", "remote_src.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "- Kind: foreign table\n") {
		t.Errorf("remote_src.md does not say it is a foreign table:\n%s", page)
	}
	if !strings.Contains(res.stderr, "missing_file") {
		t.Errorf("stderr does not name the table it could not read:\n%s", res.stderr)
	}
}
