package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/internal/cachetest"
	"github.com/discover-db/discover/report"
)

// TestMain lets the test binary act as the discover command (for the
// SIGKILL test, which needs a real process), and gives the tests one cache
// folder of their own (cachetest): the demo database is built once, the
// runs' sealing keys stay out of the user's cache, and a key a run leaves
// behind fails the suite.
func TestMain(m *testing.M) {
	if os.Getenv("DISCOVER_TEST_AS_CLI") == "1" {
		code := Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		writePeak(os.Getenv("DISCOVER_TEST_PEAK_FILE"))
		os.Exit(code)
	}
	os.Exit(cachetest.Main(m))
}

type result struct {
	code           int
	stdout, stderr string
}

func run(t testing.TB, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return result{code, out.String(), errb.String()}
}

func readReport(t *testing.T, dir string) (map[string]any, report.Report) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Validate(b); err != nil {
		t.Fatalf("report.json does not validate against report/schema.json: %v", err)
	}
	var raw map[string]any
	var r report.Report
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	// Every report a test reads is of a run whose experts' own statements
	// all passed the allow-list: one that did not means an expert needs a
	// function, clause or name its engine's guard does not list.
	for _, why := range experts.OwnRefusals(r.Run.ID) {
		t.Errorf("the guard refused the experts' own statement: %s", why)
	}
	return raw, r
}

func TestDemoEndToEnd(t *testing.T) {
	out := t.TempDir()
	start := time.Now()
	res := run(t, "--demo", "--out", out, "--progress", "plain")
	took := time.Since(start)
	if res.code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", res.code, res.stderr)
	}
	t.Logf("demo run (generation included) took %s", took)
	for _, f := range []string{"report.json", "report.md", "report.html", "catalog.db"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	_, r := readReport(t, out)
	if r.SchemaVersion != 1 || r.Database.Dialect != "sqlite" || r.Run.StopReason == nil {
		t.Fatalf("report header: %+v %+v", r.Database, r.Run)
	}
	if len(r.Tables) < 10 {
		t.Fatalf("%d tables, want the demo's 10+", len(r.Tables))
	}
	var total int64
	views := 0
	for _, tb := range r.Tables {
		if tb.Kind == "view" {
			views++
			continue
		}
		if tb.RowCount == nil {
			t.Fatalf("%s has no row count", tb.Name)
		}
		total += *tb.RowCount
	}
	if total < 100_000 || views != 1 {
		t.Fatalf("total rows %d, views %d", total, views)
	}
	declared := 0
	for _, rel := range r.Relationships {
		if rel.Source == "declared" {
			declared++
			if rel.OrphanFraction == nil || *rel.OrphanFraction != 0 {
				t.Errorf("declared %s→%s not confirmed against the data: orphan fraction %v", rel.FromTable, rel.ToTable, rel.OrphanFraction)
			}
		}
	}
	if declared < 5 {
		t.Fatalf("%d declared relationships", declared)
	}
	if r.Run.Queries == 0 || r.Run.Iterations == 0 || r.Run.Coverage < 0.95 {
		t.Fatalf("run figures: %+v", r.Run)
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, h := range []string{"## Relationships", "## Patterns", "## Insights", "## Hypotheses", "## Recommendations", "## Uncertainties"} {
		if !bytes.Contains(md, []byte(h)) {
			t.Errorf("report.md lacks %q", h)
		}
	}
	// Progress went to stderr, the written files to stdout.
	if !strings.Contains(res.stderr, "iteration 1") || !strings.Contains(res.stdout, filepath.Join(out, "report.json")) {
		t.Errorf("stdout %q\nstderr %q", res.stdout, res.stderr)
	}

	// The catalog commands read what the run wrote.
	cat := filepath.Join(out, "catalog.db")
	res = run(t, "catalog", "kind", "relationship", "--catalog", cat)
	if res.code != 0 || strings.Count(res.stdout, "\n") != len(r.Relationships) {
		t.Fatalf("catalog kind relationship: exit %d, %d lines for %d relationships\n%s", res.code,
			strings.Count(res.stdout, "\n"), len(r.Relationships), res.stderr)
	}
	res = run(t, "catalog", "get", "orders", "--kind", "table", "--catalog", cat)
	var e catalog.Entry
	if res.code != 0 || json.Unmarshal([]byte(res.stdout), &e) != nil || e.Key != "orders" || e.Expert == "" {
		t.Fatalf("catalog get: exit %d %s %s", res.code, res.stdout, res.stderr)
	}
	res = run(t, "catalog", "search", "orders", "--catalog", cat, "--limit", "3")
	if res.code != 0 || strings.Count(res.stdout, "\n") != 3 {
		t.Fatalf("catalog search: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = run(t, "catalog", "get", "no-such-key", "--catalog", cat)
	if res.code != 2 {
		t.Fatalf("catalog get of a missing key: exit %d", res.code)
	}
}

func sha(t testing.TB, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("not a database\n"), 0o644)
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	file := filepath.Join(dir, "afile")
	os.WriteFile(file, []byte("x"), 0o644)
	db := copyDataset(t, "chinook/Chinook_Sqlite.sqlite")
	cases := []struct {
		name string
		args []string
		want string // a phrase of the one-line error
	}{
		{"missing file", []string{"--db", filepath.Join(dir, "nope.db")}, "no such file"},
		{"text file", []string{"--db", text}, "not a SQLite database"},
		{"empty file", []string{"--db", empty}, "not a SQLite database"},
		{"unknown scheme", []string{"--db", "oracle://x/y"}, "unknown DSN scheme"},
		{"unwritable out", []string{"--db", db, "--out", filepath.Join(file, "sub")}, "--out"},
		{"bad duration", []string{"--db", db, "--timeout", "ten minutes"}, "timeout"},
		{"no database", []string{"--out", dir}, "--db"},
		{"both", []string{"--db", db, "--demo"}, "either"},
		{"unknown flag", []string{"--db", db, "--frobnicate"}, "frobnicate"},
		{"bad format", []string{"--db", db, "--format", "pdf"}, "pdf"},
		{"llm not yet", []string{"--db", db, "--llm", "openai"}, "--llm"},
		{"bad target", []string{"--db", db, "--target-coverage", "1.5"}, "target-coverage"},
		{"bad glob", []string{"--db", db, "--include", "["}, "glob"},
		{"resume nothing", []string{"--db", db, "--out", filepath.Join(dir, "fresh"), "--resume"}, "no unfinished run"},
		{"stray argument", []string{"--db", db, "extra"}, "extra"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if !contains(args, "--out") {
				args = append(args, "--out", filepath.Join(t.TempDir(), "o"))
			}
			res := run(t, args...)
			if res.code != 2 {
				t.Fatalf("exit %d, want 2\nstderr: %s", res.code, res.stderr)
			}
			lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], c.want) || strings.Contains(res.stderr, "goroutine") {
				t.Fatalf("want one clear line containing %q, got:\n%s", c.want, res.stderr)
			}
		})
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestVersionAndHelp(t *testing.T) {
	if res := run(t, "version"); res.code != 0 || !strings.HasPrefix(res.stdout, "discover ") {
		t.Fatalf("version: %+v", res)
	}
	res := run(t, "--help")
	for _, flag := range []string{"--db", "--demo", "--out", "--format", "--catalog", "--max-iterations", "--target-confidence",
		"--target-coverage", "--timeout", "--parallel", "--sample-rows", "--include", "--exclude", "--llm", "--llm-model",
		"--llm-base-url", "--llm-paths", "--resume", "--progress", "--quiet", "--verbose", "DISCOVER_"} {
		if !strings.Contains(res.stdout, flag) {
			t.Errorf("--help does not mention %s", flag)
		}
	}
	// ask exists, but without a model it is a usage error that says what to give.
	if res := run(t, "ask", "how many orders?", "--demo"); res.code != 2 || !strings.Contains(res.stderr, "needs a language model") {
		t.Fatalf("ask: %+v", res)
	}
}

// findDatasets walks up from the working directory to shared/datasets.
func findDatasets(t *testing.T) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		p := filepath.Join(dir, "shared", "datasets")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("shared/datasets not found above the working directory")
		}
		dir = parent
	}
}

func copyDataset(t *testing.T, rel string) string {
	t.Helper()
	src := filepath.Join(findDatasets(t), rel)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(dst, b, 0o444); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestEnvironmentOverridesDefaults(t *testing.T) {
	db := copyDataset(t, "chinook/Chinook_Sqlite.sqlite")
	out := t.TempDir()
	t.Setenv("DISCOVER_MAX_ITERATIONS", "1")
	t.Setenv("DISCOVER_FORMAT", "json")
	res := run(t, "--db", db, "--out", out, "-q")
	// One iteration reads and profiles every table but tests no
	// relationship yet: the run is incomplete, and says so.
	if res.code != exitIncomplete || !strings.Contains(res.stderr, "planned tests or tasks were given up or not run") {
		t.Fatalf("exit %d, want %d naming the tests not run: %s", res.code, exitIncomplete, res.stderr)
	}
	_, r := readReport(t, out)
	if r.Run.Iterations != 1 || r.Run.StopReason == nil || *r.Run.StopReason != "max_iterations" {
		t.Fatalf("DISCOVER_MAX_ITERATIONS=1 ignored: %+v", r.Run)
	}
	for _, u := range r.Outcome.Unseen {
		if u.What != "test" || !strings.Contains(u.Reason, "max_iterations") {
			t.Errorf("after one iteration, unseen %+v: want only tests not reached before max_iterations", u)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "report.md")); err == nil {
		t.Fatal("DISCOVER_FORMAT=json ignored: report.md written")
	}
	// A flag beats the environment.
	out2 := t.TempDir()
	if res := run(t, "--db", db, "--out", out2, "-q", "--max-iterations", "50"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if _, r := readReport(t, out2); r.Run.Iterations < 2 {
		t.Fatalf("--max-iterations 50 did not override the environment: %d iterations", r.Run.Iterations)
	}
}

// checkSakilaOutcome: sakila's SQLite file has two views written for
// MySQL that do not compile; everything else reads.
func checkSakilaOutcome(t *testing.T, r report.Report) {
	t.Helper()
	if r.Outcome == nil || r.Outcome.Status != "incomplete" {
		t.Fatalf("outcome %+v, want incomplete", r.Outcome)
	}
	var got []string
	for _, u := range r.Outcome.Unseen {
		got = append(got, u.What+" "+u.Table)
		if !strings.Contains(u.Reason, "does not compile") {
			t.Errorf("%s: reason %q", u.Table, u.Reason)
		}
	}
	if strings.Join(got, ", ") != "table actor_info, table nicer_but_slower_film_list" {
		t.Errorf("unseen: %v, want sakila's two broken views", got)
	}
}

func TestIncludeExclude(t *testing.T) {
	db := copyDataset(t, "chinook/Chinook_Sqlite.sqlite")
	out := t.TempDir()
	res := run(t, "--db", db, "--out", out, "-q", "--format", "json", "--include", "Invoice*", "--include", "customer", "--exclude", "*Line")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	_, r := readReport(t, out)
	var names []string
	for _, tb := range r.Tables {
		names = append(names, tb.Name)
	}
	if strings.Join(names, ",") != "Customer,Invoice" {
		t.Fatalf("tables %v, want Customer,Invoice", names)
	}
}

// TestKilledRunKeepsFindings kills a real discover process with SIGKILL in
// the middle of a run, then checks the catalog opens and holds every finding
// the process had reported done, and that --resume finishes the run.
func TestKilledRunKeepsFindings(t *testing.T) {
	db := copyDataset(t, "sakila/sakila.db")
	out := t.TempDir()
	cmd := exec.Command(os.Args[0], "--db", db, "--out", out, "--progress", "plain", "-v", "--parallel", "1")
	cmd.Env = append(os.Environ(), "DISCOVER_TEST_AS_CLI=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var done []string // tables the process said it had inventoried
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "done  inventory "); i >= 0 {
			name := strings.TrimSpace(line[i+len("done  inventory "):])
			name = name[:strings.LastIndex(name, " (")]
			done = append(done, name)
			if len(done) == 5 {
				break
			}
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, stderr)
	cmd.Wait()
	if len(done) < 5 {
		t.Fatalf("the process reported only %d inventoried tables before it ended", len(done))
	}

	catPath := filepath.Join(out, "catalog.db")
	ctx := context.Background()
	cat, err := catalog.Open(ctx, catPath)
	if err != nil {
		t.Fatalf("catalog after SIGKILL: %v", err)
	}
	for _, name := range done {
		if _, err := cat.Get(ctx, catalog.KindTable, name); err != nil {
			t.Errorf("finding for %s reported before the kill is missing: %v", name, err)
		}
	}
	unfinished, err := cat.LatestRun(ctx, true)
	if err != nil {
		t.Fatalf("the killed run is not recorded as unfinished: %v", err)
	}
	cat.Close()
	checkIntegrity(t, catPath)

	res := run(t, "--db", db, "--out", out, "-q", "--resume")
	if res.code != exitIncomplete {
		t.Fatalf("resume: exit %d, want %d (sakila's two broken views): %s", res.code, exitIncomplete, res.stderr)
	}
	_, r := readReport(t, out)
	checkSakilaOutcome(t, r)
	tables := 0
	for _, tb := range r.Tables {
		if tb.Kind == "table" {
			tables++
		}
	}
	if r.Run.ID != unfinished.ID || r.Run.FinishedAt == nil || tables != 16 {
		t.Fatalf("resumed report: run %s (want %s), finished %v, %d tables (want sakila's 16)", r.Run.ID, unfinished.ID, r.Run.FinishedAt, tables)
	}
}

func checkIntegrity(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var s string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&s); err != nil || s != "ok" {
		t.Fatalf("integrity_check: %q %v", s, err)
	}
}

// writePeak writes this process's peak resident memory (VmHWM, in kB) to
// path, when set. The benchmarks' child processes report it themselves:
// the peak the kernel gives a parent for its child (wait4's maxrss) counts
// the memory the parent had when it started the child, which a benchmark
// that built its database first makes larger than the run's own.
func writePeak(path string) {
	if path == "" {
		return
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			os.WriteFile(path, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o644)
		}
	}
}
