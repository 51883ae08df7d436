package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/report"
)

// TestPostgresForeignTablesEndToEnd: PostgreSQL's foreign tables (relkind
// 'f') are listed as tables of kind foreign table. One that reads (a
// postgres_fdw table over this very server) is profiled like any table,
// without the TABLESAMPLE PostgreSQL refuses on it and without index
// advice; one whose rows cannot be read (a file_fdw table over a file
// that is not there) is reported as not read, with the server's reason,
// and the run is incomplete (exit 4) rather than failed.
func TestPostgresForeignTablesEndToEnd(t *testing.T) {
	server := pgscratch.Server(t)
	dsn, name, admin := pgscratch.Database(t, server, "foreign")
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
