package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/discover-db/discover/export/dbt"
	"github.com/discover-db/discover/internal/demo"
	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/internal/load"
	"github.com/discover-db/discover/internal/pgscratch"
)

// dbtBin is the real dbt that .ci/run installs (dbt-core with the DuckDB
// and PostgreSQL adapters), from DISCOVER_TEST_DBT: the generated tests
// are proven by dbt itself, so in CI a missing dbt is a failure, not a skip.
func dbtBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("DISCOVER_TEST_DBT")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_DBT not set: .ci/run installs dbt and sets it")
		}
		t.Skip("DISCOVER_TEST_DBT not set: the path of a dbt with the duckdb and postgres adapters (see .ci/run)")
	}
	return bin
}

// extraTables add to the demo what it lacks for the dbt tests: a code
// list holding a quote, under a column name dbt must quote; an integer
// code list with NULLs; a boolean; a key and a reference of two columns; and a schema
// whose name has a space and capitals. The SQL runs on DuckDB and
// PostgreSQL alike (whose / differ: DuckDB's divides as reals, so a
// whole quotient is written (i - i % n) / n).
var extraTables = []string{
	`CREATE TABLE tickets (id INTEGER PRIMARY KEY, "State" VARCHAR(20) NOT NULL, priority INTEGER, escalated BOOLEAN NOT NULL, opened_at TIMESTAMP NOT NULL)`,
	`INSERT INTO tickets SELECT i, CASE i % 4 WHEN 0 THEN 'open' WHEN 1 THEN 'closed' WHEN 2 THEN 'on hold' ELSE 'won''t fix' END,
		CASE WHEN i % 5 = 0 THEN NULL ELSE 1 + i % 3 END, i % 7 = 0, TIMESTAMP '2024-01-01 00:00:00' + i * INTERVAL '1 hour'
		FROM generate_series(1, 400) t(i)`,
	`CREATE TABLE legs (order_id INTEGER NOT NULL, leg_no INTEGER NOT NULL, carrier VARCHAR(10) NOT NULL, PRIMARY KEY (order_id, leg_no))`,
	`INSERT INTO legs SELECT 1 + (i - i % 2) / 2, 1 + i % 2, CASE i % 3 WHEN 0 THEN 'DHL' WHEN 1 THEN 'UPS' ELSE 'DPD' END FROM generate_series(0, 299) t(i)`,
	`CREATE TABLE leg_events (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, leg_no INTEGER NOT NULL, event VARCHAR(10) NOT NULL,
		FOREIGN KEY (order_id, leg_no) REFERENCES legs (order_id, leg_no))`,
	`INSERT INTO leg_events SELECT i, 1 + (i % 300 - i % 2) / 2, 1 + i % 2, CASE WHEN i < 300 THEN 'picked' ELSE 'dropped' END FROM generate_series(0, 599) t(i)`,
	`CREATE SCHEMA "Sales Ops"`,
	`CREATE TABLE "Sales Ops"."Targets" ("Region" VARCHAR(10) NOT NULL, year INTEGER NOT NULL, amount INTEGER, PRIMARY KEY ("Region", year))`,
	`INSERT INTO "Sales Ops"."Targets" SELECT CASE i % 3 WHEN 0 THEN 'north' WHEN 1 THEN 'south' ELSE 'west' END, 2000 + (i - i % 3) / 3, i * 10 FROM generate_series(0, 59) t(i)`,
}

func execAll(t *testing.T, db *sql.DB, stmts []string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// TestDbtDuckDB discovers the demo shop in DuckDB, writes the dbt format,
// and runs the real `dbt test` on the database: every generated test runs
// and passes. Then, on a copy where one code and one reference were
// broken, exactly the tests of those two columns fail.
func TestDbtDuckDB(t *testing.T) {
	if heavy.Race {
		t.Skip("runs in the non-race pass of .ci/run: dbt is the same either way")
	}
	bin := dbtBin(t)
	ctx := context.Background()
	src, err := demo.Ensure(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.duckdb")
	if err := load.Copy(ctx, src, "duckdb", file); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", file)
	if err != nil {
		t.Fatal(err)
	}
	execAll(t, db, extraTables)
	db.Close()

	out := filepath.Join(dir, "out")
	res := run(t, "--db", "duckdb://"+file, "--out", out, "--format", "json,dbt", "--progress", "none", "-q")
	if res.code != 0 {
		t.Fatalf("discover: exit %d: %s", res.code, res.stderr)
	}
	generated := generatedTests(t, filepath.Join(out, "dbt", "models"))
	wantSchemas(t, filepath.Join(out, "dbt", "models"), "sources_main.yml", "sources_sales_ops.yml")
	checkKinds(t, generated)
	for _, want := range []string{
		"accepted_values main.tickets.State", "accepted_values main.orders.status", "not_null main.tickets.State",
		"accepted_values main.tickets.priority", "accepted_values main.tickets.escalated",
		"relationships main.addresses.customer_id", "unique main.customers.id", "not_null sales_ops.Targets.Region",
	} {
		if !slices.Contains(generated, want) {
			t.Errorf("no test %q among the generated %q", want, generated)
		}
	}
	for _, never := range []string{"relationships main.reviews.customer_id", "unique main.customers.email", "not_null main.customers.phone"} {
		if slices.Contains(generated, never) {
			t.Errorf("generated %q, which the data refutes", never)
		}
	}

	profile := func(path string) string {
		return fmt.Sprintf("type: duckdb\n      path: %q\n      threads: 1\n", path)
	}
	code, results, log := runDbt(t, bin, filepath.Join(out, "dbt", "models"), profile(file))
	if code != 0 {
		t.Fatalf("dbt test: exit %d\n%s", code, log)
	}
	checkAllPass(t, generated, results, log)
	t.Logf("dbt ran %d tests on DuckDB, all passed", len(results))

	// The tests can fail: a code no row held, a reference with no parent.
	broken := filepath.Join(dir, "broken.duckdb")
	if err := copyFile(file, broken); err != nil {
		t.Fatal(err)
	}
	db, err = sql.Open("duckdb", broken)
	if err != nil {
		t.Fatal(err)
	}
	execAll(t, db, []string{
		`UPDATE tickets SET "State" = 'lost' WHERE id = 1`,
		`UPDATE addresses SET customer_id = 999999 WHERE id = 1`,
	})
	db.Close()
	code, results, log = runDbt(t, bin, filepath.Join(out, "dbt", "models"), profile(broken))
	if code == 0 {
		t.Fatalf("dbt test passed on the broken copy\n%s", log)
	}
	var failed []string
	for _, r := range results {
		if r.Status != "pass" {
			failed = append(failed, r.Status+" "+r.Test)
		}
	}
	slices.Sort(failed)
	want := []string{"fail accepted_values main.tickets.State", "fail relationships main.addresses.customer_id"}
	if !slices.Equal(failed, want) {
		t.Fatalf("on the broken copy, failed %q, want %q\n%s", failed, want, log)
	}
}

// TestDbtPostgres does the same on a PostgreSQL scratch database: the
// demo shop with the same extra tables, discovered with a sample size that
// makes the four largest tables read through samples, written as dbt
// sources, and every generated test run by dbt-postgres, all passing; no
// test rests on a sample's figures.
func TestDbtPostgres(t *testing.T) {
	if heavy.Race {
		t.Skip("runs in the non-race pass of .ci/run: dbt is the same either way")
	}
	bin := dbtBin(t)
	server := pgscratch.Server(t)
	dsn, name, admin := pgscratch.Database(t, server, "dbt")
	ctx := context.Background()
	src, err := demo.Ensure(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := load.Copy(ctx, src, "postgres", dsn); err != nil {
		t.Fatal(err)
	}
	execAll(t, admin, extraTables)

	out := t.TempDir()
	res := run(t, "--db", dsn, "--out", out, "--format", "json,dbt", "--progress", "none", "-q", "--sample-rows", "20000")
	if res.code != 0 {
		t.Fatalf("discover: exit %d: %s", res.code, res.stderr)
	}
	models := filepath.Join(out, "dbt", "models")
	generated := generatedTests(t, models)
	wantSchemas(t, models, "sources_public.yml", "sources_sales_ops.yml")
	checkKinds(t, generated)
	for _, want := range []string{"accepted_values public.tickets.State", "accepted_values public.tickets.escalated", "not_null sales_ops.Targets.Region", "relationships public.orders.customer_id"} {
		if !slices.Contains(generated, want) {
			t.Errorf("no test %q among the generated %q", want, generated)
		}
	}
	sampled, measured := onSamples(t, models)
	if !slices.Contains(sampled, "public.orders.status") {
		t.Errorf("orders.status was not profiled on a sample (sampled: %q): the test does not test sampling", sampled)
	}
	if len(measured) > 0 {
		t.Errorf("tests measured on a sample: %q", measured)
	}
	if slices.Contains(generated, "accepted_values public.orders.status") {
		t.Errorf("accepted_values of orders.status, whose values a sample showed")
	}

	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pass, _ := u.User.Password()
	profile := fmt.Sprintf("type: postgres\n      host: %q\n      port: %s\n      user: %q\n      password: %q\n      dbname: %q\n      schema: public\n      threads: 1\n",
		u.Hostname(), u.Port(), u.User.Username(), pass, name)
	code, results, log := runDbt(t, bin, models, profile)
	if code != 0 {
		t.Fatalf("dbt test: exit %d\n%s", code, log)
	}
	checkAllPass(t, generated, results, log)
	t.Logf("dbt ran %d tests on PostgreSQL, all passed", len(results))
}

// generatedTests lists the data tests in the sources files, each as
// "kind source.table.column".
func generatedTests(t *testing.T, models string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(models, "sources_*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources files in %s (%v)", models, err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Sources []struct {
				Name   string
				Tables []struct {
					Name    string
					Columns []struct {
						Name      string
						DataTests []map[string]any `yaml:"data_tests"`
					}
				}
			}
		}
		if err := yaml.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, s := range doc.Sources {
			for _, tb := range s.Tables {
				for _, c := range tb.Columns {
					for _, dt := range c.DataTests {
						for kind := range dt {
							out = append(out, fmt.Sprintf("%s %s.%s.%s", kind, s.Name, tb.Name, c.Name))
						}
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// onSamples lists the columns whose profile read a sample and the tests
// on them that say they were measured: there must be none.
func onSamples(t *testing.T, models string) (sampled, measured []string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(models, "sources_*.yml"))
	type meta struct {
		Discover struct {
			ProfileSampled bool     `yaml:"profile_sampled"`
			Basis          string   `yaml:"basis"`
			Evidence       []string `yaml:"evidence"`
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Sources []struct {
				Name   string
				Tables []struct {
					Name    string
					Columns []struct {
						Name      string
						Meta      meta
						DataTests []map[string]struct{ Config struct{ Meta meta } } `yaml:"data_tests"`
					}
				}
			}
		}
		if err := yaml.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, s := range doc.Sources {
			for _, tb := range s.Tables {
				for _, c := range tb.Columns {
					if !c.Meta.Discover.ProfileSampled {
						continue
					}
					name := s.Name + "." + tb.Name + "." + c.Name
					sampled = append(sampled, name)
					for _, dt := range c.DataTests {
						for kind, body := range dt {
							switch body.Config.Meta.Discover.Basis {
							case "measured":
								measured = append(measured, kind+" "+name)
							case "checked":
								t.Logf("%s %s on a sampled profile, checked: %q", kind, name, body.Config.Meta.Discover.Evidence)
							}
						}
					}
				}
			}
		}
	}
	return sampled, measured
}

func wantSchemas(t *testing.T, models string, names ...string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(models, "*.yml"))
	var got []string
	for _, f := range files {
		got = append(got, filepath.Base(f))
	}
	if !slices.Equal(got, names) {
		t.Fatalf("sources files %q, want %q", got, names)
	}
}

func checkKinds(t *testing.T, generated []string) {
	t.Helper()
	for _, kind := range []string{dbt.NotNull, dbt.Unique, dbt.Relationships, dbt.AcceptedValues} {
		n := 0
		for _, g := range generated {
			if strings.HasPrefix(g, kind+" ") {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no %s test generated", kind)
		}
		t.Logf("%d %s tests", n, kind)
	}
}

// checkAllPass: dbt ran exactly the generated tests, and each passed.
func checkAllPass(t *testing.T, generated []string, results []dbtResult, log string) {
	t.Helper()
	var ran []string
	for _, r := range results {
		ran = append(ran, r.Test)
		if r.Status != "pass" {
			t.Errorf("%s: %s (%d failures)", r.Test, r.Status, r.Failures)
		}
	}
	slices.Sort(ran)
	if !slices.Equal(ran, generated) {
		t.Fatalf("dbt ran %d tests, %d were generated\nran:       %q\ngenerated: %q\n%s", len(ran), len(generated), ran, generated, log)
	}
}

type dbtResult struct {
	Test     string // kind source.table.column, as generatedTests names it
	Status   string
	Failures int
}

var sourceCall = regexp.MustCompile(`source\('([^']*)', '([^']*)'\)`)

// runDbt runs `dbt test` in a project of its own holding the sources
// files, against the database the profile output (YAML under outputs.dev)
// names, and reads which test ran with what result from dbt's artefacts.
func runDbt(t *testing.T, bin, models, output string) (code int, results []dbtResult, log string) {
	t.Helper()
	proj := t.TempDir()
	copyDir(t, models, filepath.Join(proj, "models"))
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("dbt_project.yml", "name: discover_check\nversion: \"1.0\"\nconfig-version: 2\nprofile: discover_check\n")
	write("profiles.yml", "discover_check:\n  target: dev\n  outputs:\n    dev:\n      "+output)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "test", "--project-dir", proj, "--profiles-dir", proj,
		"--target-path", filepath.Join(proj, "target"), "--log-path", filepath.Join(proj, "logs"))
	cmd.Env = append(os.Environ(), "DBT_SEND_ANONYMOUS_USAGE_STATS=False", "DO_NOT_TRACK=1")
	b, err := cmd.CombinedOutput()
	log = string(b)
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("dbt test: %v\n%s", err, log)
	}
	var run struct {
		Results []struct {
			UniqueID string `json:"unique_id"`
			Status   string
			Failures *int
		}
	}
	var manifest struct {
		Nodes map[string]struct {
			ColumnName   string `json:"column_name"`
			TestMetadata struct {
				Name   string
				Kwargs map[string]any
			} `json:"test_metadata"`
		}
	}
	readJSON(t, filepath.Join(proj, "target", "run_results.json"), &run, log)
	readJSON(t, filepath.Join(proj, "target", "manifest.json"), &manifest, log)
	for _, r := range run.Results {
		n, ok := manifest.Nodes[r.UniqueID]
		model, _ := n.TestMetadata.Kwargs["model"].(string)
		m := sourceCall.FindStringSubmatch(model)
		if !ok || m == nil {
			t.Fatalf("dbt ran %s, which is no test of a source", r.UniqueID)
		}
		res := dbtResult{Test: fmt.Sprintf("%s %s.%s.%s", n.TestMetadata.Name, m[1], m[2], strings.Trim(n.ColumnName, `"`)), Status: r.Status}
		if r.Failures != nil {
			res.Failures = *r.Failures
		}
		results = append(results, res)
	}
	return code, results, log
}

func readJSON(t *testing.T, path string, v any, log string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := copyFile(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDBMLFormat discovers the demo shop and reads its schema.dbml back
// with @dbml/core, the parser of dbdiagram.io (installed by .ci/run in the
// folder DISCOVER_TEST_DBML names): every table and every reference of the
// report is in it.
func TestDBMLFormat(t *testing.T) {
	dir := os.Getenv("DISCOVER_TEST_DBML")
	if dir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_DBML not set: .ci/run installs @dbml/core and sets it")
		}
		t.Skip("DISCOVER_TEST_DBML not set: the folder @dbml/core is installed in (see .ci/run)")
	}
	out := t.TempDir()
	res := run(t, "--demo", "--out", out, "--format", "json,dbml", "--progress", "none", "-q")
	if res.code != 0 {
		t.Fatalf("discover: exit %d: %s", res.code, res.stderr)
	}
	_, r := readReport(t, out)
	cmd := exec.Command("node", filepath.Join("..", "..", "export", "dbml", "testdata", "parse.js"), filepath.Join(out, "schema.dbml"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("@dbml/core refuses schema.dbml: %v\n%s", err, stderr.String())
	}
	var parsed struct {
		Tables []struct{ Schema, Name string }
		Refs   []struct {
			Endpoints []struct {
				Table  string
				Fields []string
			}
		}
	}
	if err := json.Unmarshal(b, &parsed); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, tb := range parsed.Tables {
		got = append(got, tb.Name)
	}
	for _, tb := range r.Tables {
		want = append(want, tb.Name)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("DBML tables %q, report tables %q", got, want)
	}
	got, want = nil, nil
	for _, ref := range parsed.Refs {
		e := ref.Endpoints
		got = append(got, fmt.Sprintf("%s.%s>%s.%s", e[0].Table, strings.Join(e[0].Fields, ","), e[1].Table, strings.Join(e[1].Fields, ",")))
	}
	for _, rel := range r.Relationships {
		want = append(want, fmt.Sprintf("%s.%s>%s.%s", rel.FromTable, strings.Join(rel.FromColumns, ","), rel.ToTable, strings.Join(rel.ToColumns, ",")))
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("DBML refs %q, report relationships %q", got, want)
	}
}

// TestFormatDbtAndDBMLFiles: the two formats write where the README says,
// beside the others, and an unknown format is refused before a run.
func TestFormatDbtAndDBMLFiles(t *testing.T) {
	out := t.TempDir()
	res := run(t, "--demo", "--out", out, "--format", "dbt,dbml", "--progress", "none", "-q")
	if res.code != 0 {
		t.Fatalf("discover: exit %d: %s", res.code, res.stderr)
	}
	for _, f := range []string{"dbt/models/sources_main.yml", "schema.dbml"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v (%d bytes)", f, err, len(b))
		}
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); !os.IsNotExist(err) {
		t.Errorf("report.md written though not asked for (%v)", err)
	}
	generated := generatedTests(t, filepath.Join(out, "dbt", "models"))
	checkKinds(t, generated)

	res = run(t, "--demo", "--out", t.TempDir(), "--format", "dbt,dbx", "--progress", "none", "-q")
	if res.code != 2 || !strings.Contains(res.stderr, `unknown format "dbx" (md, json, html, dot, mermaid, dbt, dbml)`) {
		t.Errorf("--format dbx: exit %d: %s", res.code, res.stderr)
	}
}
