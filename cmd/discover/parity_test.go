package main

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/discover-db/discover/internal/demo"
	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/internal/load"
	"github.com/discover-db/discover/report"
)

// serverDSN returns the admin DSN of a test server from the environment,
// failing in CI (where .ci/run starts the servers) and skipping elsewhere.
func serverDSN(t *testing.T, env string) string {
	t.Helper()
	dsn := os.Getenv(env)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not set: .ci/run starts the servers", env)
		}
		t.Skipf(`%s not set: run eval "$(.ci/start-servers)" first`, env)
	}
	return dsn
}

// TestParity loads the demo data into PostgreSQL, MariaDB, DuckDB, a
// Trino memory catalog and a Spark SQL database of Parquet tables and
// checks that discovery reports the same tables,
// row counts, keys, relationships and column figures as on SQLite: the
// engines differ, the data does not.
func TestParity(t *testing.T) {
	if heavy.Race {
		t.Skip("parity runs in the non-race pass of .ci/run: loading 155k rows under the race detector takes minutes")
	}
	servers := map[string]func(t *testing.T) string{
		"postgres": func(t *testing.T) string { return serverDSN(t, "DISCOVER_TEST_POSTGRES") },
		"mysql":    func(t *testing.T) string { return serverDSN(t, "DISCOVER_TEST_MYSQL") },
		"duckdb":   func(t *testing.T) string { return t.TempDir() }, // a file engine: the "server" is a folder
		"trino":    func(t *testing.T) string { return serverDSN(t, "DISCOVER_TEST_TRINO") },
		"spark":    func(t *testing.T) string { return serverDSN(t, "DISCOVER_TEST_SPARK") },
	}
	ctx := context.Background()
	demoPath, err := demo.Ensure(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	want := discoverReport(t, demoPath)
	for _, dialect := range []string{"postgres", "mysql", "duckdb", "trino", "spark"} {
		t.Run(dialect, func(t *testing.T) {
			server := servers[dialect](t)
			name := fmt.Sprintf("parity_%d", time.Now().UnixNano())
			if dialect == "trino" {
				// The cluster keeps the demo, in memory.demo, for people to
				// run discover on; each run replaces the last one's.
				name = "demo"
				if err := load.DropTrinoSchema(ctx, server, name); err != nil {
					t.Fatal(err)
				}
			}
			if dialect == "spark" {
				// Likewise the server keeps the demo in its database demo.
				name = "demo"
				if err := load.DropSparkDatabase(ctx, server, name); err != nil {
					t.Fatal(err)
				}
			}
			dsn, drop, err := load.CreateDatabase(ctx, dialect, server, name)
			if err != nil {
				t.Fatal(err)
			}
			if dialect != "trino" && dialect != "spark" {
				t.Cleanup(func() { drop() })
			}
			start := time.Now()
			if err := load.Copy(ctx, demoPath, dialect, dsn); err != nil {
				t.Fatal(err)
			}
			loaded := time.Now()
			got := discoverReport(t, dsn)
			t.Logf("loaded in %s, discovered in %s", loaded.Sub(start).Round(time.Second), time.Since(loaded).Round(time.Second))
			if got.Database.Dialect != dialect {
				t.Fatalf("dialect %q", got.Database.Dialect)
			}
			compareReports(t, want, got)
			if dialect == "trino" || dialect == "spark" {
				// No CREATE INDEX there: no index to advise.
				for _, r := range got.Recommendations {
					if r.Kind == "index" {
						t.Errorf("index advised on %s, which has no indexes: %s", dialect, r.SQL)
					}
				}
			}
			if dialect == "spark" {
				// Nothing but the guard stood before a write: the report
				// must say so.
				found := false
				for _, u := range got.Uncertainties {
					found = found || strings.Contains(u, "Spark SQL has no read-only transaction")
				}
				if !found {
					t.Errorf("no uncertainty says Spark has no read-only transaction: %q", got.Uncertainties)
				}
			}
		})
	}
}

func discoverReport(t *testing.T, dsn string) report.Report {
	t.Helper()
	out := t.TempDir()
	res := run(t, "--db", dsn, "--out", out, "--format", "json", "--progress", "none", "-q")
	if res.code != 0 {
		t.Fatalf("discover %s: exit %d: %s", dsn, res.code, res.stderr)
	}
	if strings.Contains(res.stderr, "discover") {
		t.Fatalf("stderr: %s", res.stderr)
	}
	_, r := readReport(t, out)
	return r
}

func compareReports(t *testing.T, want, got report.Report) {
	t.Helper()
	tables := func(r report.Report) map[string]report.Table {
		m := map[string]report.Table{}
		for _, tb := range r.Tables {
			m[strings.ToLower(tb.Name)] = tb
		}
		return m
	}
	wt, gt := tables(want), tables(got)
	if len(wt) != len(gt) {
		t.Errorf("%d tables, want %d", len(gt), len(wt))
	}
	for name, w := range wt {
		g, ok := gt[name]
		if !ok {
			t.Errorf("table %s missing", name)
			continue
		}
		if g.Kind != w.Kind {
			t.Errorf("%s: kind %s, want %s", name, g.Kind, w.Kind)
		}
		if fmt.Sprint(g.RowCount) != fmt.Sprint(w.RowCount) && (g.RowCount == nil || w.RowCount == nil || *g.RowCount != *w.RowCount) {
			t.Errorf("%s: rows %v, want %v", name, deref64(g.RowCount), deref64(w.RowCount))
		}
		if strings.Join(g.PrimaryKey, ",") != strings.Join(w.PrimaryKey, ",") {
			t.Errorf("%s: primary key %v, want %v", name, g.PrimaryKey, w.PrimaryKey)
		}
		wc := map[string]report.Column{}
		for _, c := range w.Columns {
			wc[strings.ToLower(c.Name)] = c
		}
		for _, c := range g.Columns {
			w, ok := wc[strings.ToLower(c.Name)]
			if !ok {
				t.Errorf("%s.%s: not in SQLite", name, c.Name)
				continue
			}
			if !closeTo(c.NullFraction, w.NullFraction) {
				t.Errorf("%s.%s: null fraction %v, want %v", name, c.Name, derefF(c.NullFraction), derefF(w.NullFraction))
			}
			if fmt.Sprint(deref64(c.DistinctCount)) != fmt.Sprint(deref64(w.DistinctCount)) {
				t.Errorf("%s.%s: distinct %v, want %v", name, c.Name, deref64(c.DistinctCount), deref64(w.DistinctCount))
			}
		}
		if len(g.Columns) != len(w.Columns) {
			t.Errorf("%s: %d columns, want %d", name, len(g.Columns), len(w.Columns))
		}
	}
	// Trino and Spark declare no foreign keys: every relationship SQLite
	// declares must be found all the same, inferred, with the same
	// cardinality and orphans.
	declares := got.Database.Dialect != "trino" && got.Database.Dialect != "spark"
	rels := func(r report.Report) []string {
		var out []string
		for _, rel := range r.Relationships {
			source := rel.Source
			if !declares {
				if (r.Database.Dialect == "trino" || r.Database.Dialect == "spark") && source != "inferred" {
					t.Errorf("relationship %s -> %s on %s: source %q, want inferred", rel.FromTable, rel.ToTable, r.Database.Dialect, source)
				}
				source = "declared or inferred"
			}
			out = append(out, strings.ToLower(fmt.Sprintf("%s(%s)->%s(%s) %s %s orphans=%s", rel.FromTable, strings.Join(rel.FromColumns, ","),
				rel.ToTable, strings.Join(rel.ToColumns, ","), source, derefS(rel.Cardinality), derefF(rel.OrphanFraction))))
		}
		sort.Strings(out)
		return out
	}
	if w, g := rels(want), rels(got); strings.Join(w, "\n") != strings.Join(g, "\n") {
		t.Errorf("relationships differ:\n got %s\nwant %s", strings.Join(g, "\n     "), strings.Join(w, "\n     "))
	}
}

func closeTo(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Abs(*a-*b) < 1e-9
}

func deref64(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func derefF(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%.6f", *p)
}

func derefS(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

// TestPostgresReadOnlyUser runs discover as a role that may read only some
// tables: it reports what it may read and lists the rest as skipped.
func TestPostgresReadOnlyUser(t *testing.T) {
	admin := serverDSN(t, "DISCOVER_TEST_POSTGRES")
	ctx := context.Background()
	name := fmt.Sprintf("ro_%d", time.Now().UnixNano())
	dsn, drop, err := load.CreateDatabase(ctx, "postgres", admin, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { drop() })
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	role := name + "_reader"
	for _, s := range []string{
		`CREATE TABLE customers (id int PRIMARY KEY, email text)`,
		`CREATE TABLE orders (id int PRIMARY KEY, customer_id int REFERENCES customers(id), total numeric(10,2))`,
		`CREATE TABLE salaries (id int PRIMARY KEY, amount numeric(10,2))`,
		`INSERT INTO customers SELECT g, 'c' || g || '@example.com' FROM generate_series(1, 50) g`,
		`INSERT INTO orders SELECT g, 1 + g % 50, g * 1.5 FROM generate_series(1, 200) g`,
		`INSERT INTO salaries SELECT g, 1000 FROM generate_series(1, 10) g`,
		`CREATE ROLE ` + role + ` LOGIN`,
		`GRANT SELECT ON customers, orders TO ` + role,
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() {
		db.ExecContext(context.Background(), `DROP OWNED BY `+role)
		db.ExecContext(context.Background(), `DROP ROLE `+role)
	})
	readerDSN := strings.Replace(dsn, "postgres://postgres@", "postgres://"+role+"@", 1)
	if readerDSN == dsn {
		t.Fatalf("cannot build the reader's DSN from %s", dsn)
	}
	// The table the role may not read makes the run incomplete (exit
	// 4): it keeps its row, marked unread with the reason, and the last
	// line on stderr names it.
	out := t.TempDir()
	res := run(t, "--db", readerDSN, "--out", out, "--format", "json", "--progress", "none", "-q")
	want := "discover: This discovery is incomplete. 1 of 3 tables and views could not be read: salaries (no SELECT privilege)."
	if res.code != exitIncomplete || strings.TrimSpace(res.stderr) != want {
		t.Fatalf("exit %d, stderr %q; want %d and %q", res.code, res.stderr, exitIncomplete, want)
	}
	_, r := readReport(t, out)
	var names []string
	for _, tb := range r.Tables {
		names = append(names, tb.Name)
		if (tb.Name == "salaries") != (tb.Unread != nil && tb.Unread.Reason == "no SELECT privilege") {
			t.Errorf("table %s: unread %+v", tb.Name, tb.Unread)
		}
	}
	if strings.Join(names, ",") != "customers,orders,salaries" {
		t.Fatalf("tables %v, want the two readable ones and salaries, marked unread", names)
	}
	if len(r.Relationships) != 1 || r.Relationships[0].OrphanFraction == nil || *r.Relationships[0].OrphanFraction != 0 {
		t.Fatalf("relationships %+v", r.Relationships)
	}
	found := false
	for _, u := range r.Uncertainties {
		if strings.Contains(u, "salaries was not examined: no SELECT privilege") {
			found = true
		}
	}
	if !found {
		t.Fatalf("the unreadable table is not listed: %v", r.Uncertainties)
	}
}

// TestServerBadInput: connection problems are one clear line, exit 2, and
// never show the password.
func TestServerBadInput(t *testing.T) {
	pg := serverDSN(t, "DISCOVER_TEST_POSTGRES")
	my := serverDSN(t, "DISCOVER_TEST_MYSQL")
	cases := []struct{ dsn, want string }{
		{strings.Replace(my, "root:discover@", "root:wrongpass1@", 1), "access denied"},
		{strings.Replace(my, "/discover_test", "/no_such_db", 1), `database "no_such_db" does not exist`},
		{"mysql://root:wrongpass1@127.0.0.1:1/x", "cannot reach 127.0.0.1:1"},
		{strings.Replace(pg, "/discover_test", "/no_such_db", 1), `database "no_such_db" does not exist`},
		{"postgres://u:wrongpass1@127.0.0.1:1/x", "cannot reach 127.0.0.1:1"},
	}
	for _, c := range cases {
		start := time.Now()
		res := run(t, "--db", c.dsn, "--out", t.TempDir())
		if res.code != 2 || !strings.Contains(res.stderr, c.want) || strings.Contains(res.stderr, "wrongpass1") ||
			strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want one line with %q and no password", c.dsn, res.code, res.stderr, c.want)
		}
		if time.Since(start) > 15*time.Second {
			t.Errorf("%s: took %s", c.dsn, time.Since(start))
		}
	}
}

// TestTrinoBadInput: on the command line, a Trino DSN that is malformed,
// names no catalog or schema the cluster has, or points at no cluster is
// one clear line and exit 2, without the password.
func TestTrinoBadInput(t *testing.T) {
	u, err := url.Parse(serverDSN(t, "DISCOVER_TEST_TRINO"))
	if err != nil {
		t.Fatal(err)
	}
	host := u.Host
	cases := []struct{ dsn, want string }{
		{"trino://alice@" + host + "/nope", "catalog \"nope\": line 1:22: Catalog 'nope' not found"},
		{"trino://alice@" + host + "/memory/nope", `schema "nope" not found in catalog "memory"`},
		{"trino://alice@127.0.0.1:1/memory", "trino: open 127.0.0.1:1: cannot connect"},
		{"trino://" + host + "/memory", "no user"},
		{"trino://alice:wrongpass1@" + host + "/memory", "a password needs HTTPS"},
		{"trino://alice@" + host + "/memory?timeout=5", `unknown parameter "timeout"`},
	}
	for _, c := range cases {
		start := time.Now()
		res := run(t, "--db", c.dsn, "--out", t.TempDir())
		if res.code != 2 || !strings.Contains(res.stderr, c.want) || strings.Contains(res.stderr, "wrongpass1") ||
			strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want one line with %q and no password", c.dsn, res.code, res.stderr, c.want)
		}
		if time.Since(start) > 15*time.Second {
			t.Errorf("%s: took %s", c.dsn, time.Since(start))
		}
	}
}

// TestTrinoUnreadableTable runs discover as a Trino user who may see a
// table but not read it (the cluster's access rules: alice and any
// memory table called salaries): the run reports the rest, marks it
// unread, and ends incomplete, as on PostgreSQL.
func TestTrinoUnreadableTable(t *testing.T) {
	server := serverDSN(t, "DISCOVER_TEST_TRINO")
	ctx := context.Background()
	name := fmt.Sprintf("ro_%d", time.Now().UnixNano())
	dsn, drop, err := load.CreateDatabase(ctx, "trino", server, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { drop() })
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("trino", "http://admin@"+u.Host+"?catalog=memory&schema="+name)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`CREATE TABLE customers AS SELECT x AS id, 'c' || CAST(x AS varchar) || '@example.com' AS email FROM UNNEST(sequence(1, 50)) AS t(x)`,
		`CREATE TABLE orders AS SELECT x AS id, 1 + x % 50 AS customer_id, CAST(x * 1.5 AS decimal(10,2)) AS total FROM UNNEST(sequence(1, 200)) AS t(x)`,
		`CREATE TABLE salaries AS SELECT x AS id, DECIMAL '1000.00' AS amount FROM UNNEST(sequence(1, 10)) AS t(x)`,
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	out := t.TempDir()
	res := run(t, "--db", strings.Replace(dsn, "trino://admin@", "trino://alice@", 1), "--out", out, "--format", "json", "--progress", "none", "-q")
	// Trino's reason carries the cluster's own words.
	want := "discover: This discovery is incomplete. 1 of 3 tables and views could not be read: salaries " +
		"(no SELECT privilege: Access Denied: Cannot select from table memory." + name + ".salaries)."
	if res.code != exitIncomplete || strings.TrimSpace(res.stderr) != want {
		t.Fatalf("exit %d, stderr %q; want %d and %q", res.code, res.stderr, exitIncomplete, want)
	}
	_, r := readReport(t, out)
	var names []string
	for _, tb := range r.Tables {
		names = append(names, tb.Name)
		if (tb.Name == "salaries") != (tb.Unread != nil && strings.HasPrefix(tb.Unread.Reason, "no SELECT privilege")) {
			t.Errorf("table %s: unread %+v", tb.Name, tb.Unread)
		}
	}
	if strings.Join(names, ",") != "customers,orders,salaries" {
		t.Fatalf("tables %v, want the two readable ones and salaries, marked unread", names)
	}
	if len(r.Relationships) != 1 || r.Relationships[0].OrphanFraction == nil || *r.Relationships[0].OrphanFraction != 0 {
		t.Fatalf("relationships %+v", r.Relationships)
	}
}

// TestSparkBadInput: on the command line, a Spark DSN that is malformed,
// names a database the server lacks, or points at no server is one clear
// line and exit 2, without the password.
func TestSparkBadInput(t *testing.T) {
	u, err := url.Parse(serverDSN(t, "DISCOVER_TEST_SPARK"))
	if err != nil {
		t.Fatal(err)
	}
	host := u.Host
	cases := []struct{ dsn, want string }{
		{"spark://" + host + "/no_such_db", `spark: open ` + host + `: database "no_such_db"`},
		{"spark://alice@127.0.0.1:1/default", "spark: open 127.0.0.1:1: cannot connect"},
		{"spark://alice:wrongpass1@" + host + "/default", "a password needs TLS"},
		{"spark://" + host + "/default?timeout=5", `unknown parameter "timeout"`},
		{"spark://" + host + "/a/b", "too many path segments"},
	}
	for _, c := range cases {
		start := time.Now()
		res := run(t, "--db", c.dsn, "--out", t.TempDir())
		if res.code != 2 || !strings.Contains(res.stderr, c.want) || strings.Contains(res.stderr, "wrongpass1") ||
			strings.Count(strings.TrimSpace(res.stderr), "\n") != 0 {
			t.Errorf("%s: exit %d, stderr %q; want one line with %q and no password", c.dsn, res.code, res.stderr, c.want)
		}
		if time.Since(start) > 15*time.Second {
			t.Errorf("%s: took %s", c.dsn, time.Since(start))
		}
	}
}
