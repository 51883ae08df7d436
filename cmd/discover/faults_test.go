package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/report"
)

// cliChild is discover running as a separate process (the test binary with
// DISCOVER_TEST_AS_CLI=1), so that a test can stop it, fault its database
// and let it go on, while reading its progress as it comes.
type cliChild struct {
	cmd    *exec.Cmd
	lines  chan string // stderr, line by line, until it closes
	mu     sync.Mutex
	stderr strings.Builder
	stdout strings.Builder
	done   chan struct{} // closed when both streams are read to the end
}

func startCLI(t *testing.T, args ...string) *cliChild {
	t.Helper()
	c := &cliChild{cmd: exec.Command(os.Args[0], args...), lines: make(chan string, 4096), done: make(chan struct{})}
	c.cmd.Env = append(os.Environ(), "DISCOVER_TEST_AS_CLI=1")
	errPipe, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.cmd.Process.Signal(syscall.SIGCONT)
		c.cmd.Process.Kill()
		<-c.done
		c.cmd.Wait()
	})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer close(c.lines)
		sc := bufio.NewScanner(errPipe)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			c.mu.Lock()
			c.stderr.WriteString(sc.Text() + "\n")
			c.mu.Unlock()
			select {
			case c.lines <- sc.Text():
			default: // nobody waits for lines any more
			}
		}
	}()
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(outPipe)
		for sc.Scan() {
			c.mu.Lock()
			c.stdout.WriteString(sc.Text() + "\n")
			c.mu.Unlock()
		}
	}()
	go func() { wg.Wait(); close(c.done) }()
	return c
}

// waitLine returns the first progress line containing substr, failing the
// test if the process ends (or a few minutes pass) first.
func (c *cliChild) waitLine(t *testing.T, substr string) string {
	t.Helper()
	timeout := time.After(3 * time.Minute)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				t.Fatalf("the run ended before printing %q:\n%s", substr, c.log())
			}
			if strings.Contains(line, substr) {
				return line
			}
		case <-timeout:
			t.Fatalf("no line with %q within 3 minutes:\n%s", substr, c.log())
		}
	}
}

func (c *cliChild) log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// stop freezes the process (SIGSTOP) so a fault lands while it is mid-run;
// the returned function lets it go on.
func (c *cliChild) stop(t *testing.T) func() {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := c.cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
	}
}

// wait waits for the process to end and returns its exit code and stderr.
func (c *cliChild) wait(t *testing.T) (int, string) {
	t.Helper()
	<-c.done
	err := c.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return c.cmd.ProcessState.ExitCode(), c.log()
}

// failLines are the progress lines of failed tasks.
func failLines(log string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, " FAIL ") {
			out = append(out, line)
		}
	}
	return out
}

// checkComplete fails the test unless each named table of the report has
// its row count and every column its profile (its null fraction measured).
func checkComplete(t *testing.T, r report.Report, names ...string) {
	t.Helper()
	byName := map[string]report.Table{}
	for _, tb := range r.Tables {
		byName[tb.Name] = tb
	}
	for _, name := range names {
		tb, ok := byName[name]
		if !ok {
			t.Errorf("table %s is missing from the report", name)
			continue
		}
		if tb.RowCount == nil {
			t.Errorf("table %s has no row count", name)
		}
		if len(tb.Columns) == 0 {
			t.Errorf("table %s has no columns", name)
		}
		for _, c := range tb.Columns {
			if c.NullFraction == nil {
				t.Errorf("column %s.%s was not profiled", name, c.Name)
			}
		}
	}
}

// checkFailedTasks fails the test unless the tasks that failed in a run
// faulted mid-way (connections dropped, SELECT on table secret revoked,
// view slow_v slower than --query-timeout) are tasks on secret or slow_v,
// none of them failed by a dropped connection, which dropped tells from
// the task's progress line: a dropped connection is retried.
func checkFailedTasks(t *testing.T, log string, dropped func(line string) bool) {
	t.Helper()
	for _, line := range failLines(log) {
		if dropped(line) {
			t.Errorf("a task failed on a dropped connection instead of retrying: %s", line)
		}
		if !strings.Contains(line, "secret") && !strings.Contains(line, "slow_v") {
			t.Errorf("a task failed that has nothing to do with the faulted tables: %s", line)
		}
	}
}

// checkFaultedReport fails the test unless the report of such a run still
// tested the declared orders→customers relationship against the data, and
// its uncertainties say that secret could not be read (with the words of
// denied) and that slow_v timed out, without holding up the work over all
// tables. On failure it logs the uncertainties and the run's log.
func checkFaultedReport(t *testing.T, r report.Report, log, denied string) {
	t.Helper()
	found := false
	for _, rel := range r.Relationships {
		if rel.FromTable == "orders" && rel.ToTable == "customers" && rel.Source == "declared" {
			found = true
			if rel.OrphanFraction == nil || *rel.OrphanFraction != 0 {
				t.Errorf("orders→customers not tested against the data: %+v", rel)
			}
		}
	}
	if !found {
		t.Error("the declared orders→customers relationship is missing")
	}
	if u, ok := uncertaintyAbout(r, "secret", denied); !ok {
		t.Errorf("no uncertainty says secret could not be read: %q", r.Uncertainties)
	} else {
		t.Logf("uncertainty: %s", u)
	}
	if u, ok := timedOut(r, "slow_v"); !ok {
		t.Errorf("no uncertainty says slow_v timed out: %q", r.Uncertainties)
	} else {
		t.Logf("uncertainty: %s", u)
	}
	checkWentOn(t, r, "slow_v")
	checkUnseen(t, r, "secret", denied)
	checkUnseen(t, r, "slow_v", "")
	if t.Failed() {
		b, _ := json.MarshalIndent(r.Uncertainties, "", "  ")
		t.Logf("uncertainties: %s\nlog:\n%s", b, log)
	}
}

// checkUnseen fails the test unless the report's outcome is incomplete
// and names table among what was not seen, with a reason containing why
// (any reason when why is empty).
func checkUnseen(t *testing.T, r report.Report, table, why string) {
	t.Helper()
	if r.Outcome == nil || r.Outcome.Status != "incomplete" {
		t.Errorf("outcome %+v, want incomplete", r.Outcome)
		return
	}
	for _, u := range r.Outcome.Unseen {
		if u.Table == table && strings.Contains(u.Reason, why) {
			return
		}
	}
	t.Errorf("the outcome does not name %s (%q) among what was not seen: %+v", table, why, r.Outcome.Unseen)
}

// containsAny reports whether s contains any of words.
func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// checkWentOn fails the test when the work over all tables (relationship
// inference, structural patterns) was left undone because of one table.
func checkWentOn(t *testing.T, r report.Report, table string) {
	t.Helper()
	if u, ok := uncertaintyAbout(r, "stopped before finishing", "structural patterns"); ok {
		t.Errorf("the failure of %s held up the work over every other table (relationship inference and patterns never ran): %s", table, u)
	}
}

// timedOut returns the uncertainty that says table timed out.
func timedOut(r report.Report, table string) (string, bool) {
	if u, ok := uncertaintyAbout(r, table, "timed out"); ok {
		return u, true
	}
	return uncertaintyAbout(r, table, "deadline exceeded")
}

// uncertaintyAbout returns the uncertainty that mentions every one of words.
func uncertaintyAbout(r report.Report, words ...string) (string, bool) {
	for _, u := range r.Uncertainties {
		all := true
		for _, w := range words {
			all = all && strings.Contains(u, w)
		}
		if all {
			return u, true
		}
	}
	return "", false
}

// scratchCopy copies a dataset to a writable file of the test's own.
func scratchCopy(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(findDatasets(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), filepath.Base(rel))
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestSQLiteLockedMidRun (issue 9, "Faults", SQLite): while discover runs
// on a SQLite file, another process takes an exclusive lock on it, as a
// writer in a long transaction does, and holds it for longer than
// discover's busy timeout (5 s). The statements that found the file locked
// are retried after a pause and succeed once the lock is released: no task
// fails, the run exits 0 and the report is complete.
func TestSQLiteLockedMidRun(t *testing.T) {
	if heavy.Race {
		t.Skip("a 6.5 s lock on top of the race detector's slowdown: run without -race")
	}
	db := scratchCopy(t, "sakila/sakila.db")
	writer, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()

	out := t.TempDir()
	c := startCLI(t, "--db", db, "--out", out, "--progress", "plain", "-v", "--format", "json")
	c.waitLine(t, "done  inventory ")

	// Freeze discover, lock the file, and let discover go on against the
	// lock. Frozen in the middle of a read, discover holds a shared lock
	// that no exclusive one can pass: let it run a moment and try again.
	var conn *sql.Conn
	for attempt := 1; ; attempt++ {
		cont := c.stop(t)
		conn, err = writer.Conn(context.Background())
		if err == nil {
			if _, err = conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
				conn.Close()
			}
		}
		if err == nil {
			cont()
			break
		}
		cont()
		if attempt == 100 {
			t.Fatalf("could not lock the file between discover's reads: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	locked := time.Now()
	// The fault itself lasts this long: beyond the 5 s busy timeout, so
	// that statements fail with SQLITE_BUSY and must be retried.
	const hold = 6500 * time.Millisecond
	time.Sleep(hold)
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	unlocked := time.Since(locked)

	code, log := c.wait(t)
	if code != exitIncomplete { // sakila's two views that do not compile
		t.Fatalf("exit %d after the lock, want %d:\n%s", code, exitIncomplete, log)
	}
	finished := time.Since(locked)
	t.Logf("the file was locked for %s; the run ended %s after the lock was taken", unlocked.Round(time.Millisecond), finished.Round(time.Millisecond))
	if finished < hold {
		t.Errorf("the run ended %s after the lock was taken, before it was released: the lock never got in its way", finished)
	}
	for _, line := range failLines(log) {
		t.Errorf("a task failed while the file was locked instead of retrying: %s", line)
	}
	_, r := readReport(t, out)
	checkSakilaOutcome(t, r)
	checkComplete(t, r, "actor", "address", "category", "city", "country", "customer", "film", "film_actor",
		"film_category", "film_text", "inventory", "language", "payment", "rental", "staff", "store")
	if len(r.Relationships) < 20 {
		t.Errorf("%d relationships, want sakila's 20 or more", len(r.Relationships))
	}
}

// TestSQLiteSlowViewTimesOut (issue 9, "Faults", SQLite): a view that
// takes longer than --query-timeout to read fails its tasks; they are tried
// again in the next round and then given up; the run goes on with the
// rest, exits 0, and the report's uncertainties name the view and the
// timeout.
func TestSQLiteSlowViewTimesOut(t *testing.T) {
	db := scratchCopy(t, "chinook/Chinook_Sqlite.sqlite")
	writer, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	// Counting this view takes minutes.
	_, err = writer.Exec(`CREATE VIEW slow_numbers AS
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT x, x % 7 AS bucket FROM c`)
	writer.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	timeout := "1s"
	if heavy.Race {
		timeout = "3s"
	}
	res := run(t, "--db", db, "--out", out, "--progress", "plain", "--format", "json", "--query-timeout", timeout)
	// The view could not be read: the run is incomplete, and says so.
	if res.code != exitIncomplete || !strings.Contains(lastLine(res.stderr), "slow_numbers (timed out after "+timeout) {
		t.Fatalf("exit %d, want %d naming slow_numbers and the timeout:\n%s", res.code, exitIncomplete, res.stderr)
	}
	fails := failLines(res.stderr)
	if len(fails) == 0 {
		t.Errorf("no task on the slow view failed: the statement timeout was never hit")
	}
	for _, line := range fails {
		if !strings.Contains(line, "slow_numbers") {
			t.Errorf("a task failed that has nothing to do with the slow view: %s", line)
		}
	}
	_, r := readReport(t, out)
	checkComplete(t, r, "Album", "Artist", "Customer", "Employee", "Genre", "Invoice", "InvoiceLine", "MediaType",
		"Playlist", "PlaylistTrack", "Track")
	if u, ok := timedOut(r, "slow_numbers"); !ok {
		t.Errorf("no uncertainty says slow_numbers timed out: %q", r.Uncertainties)
	} else {
		t.Logf("uncertainty: %s", u)
	}
	checkWentOn(t, r, "slow_numbers")
	checkUnseen(t, r, "slow_numbers", "timed out after "+timeout)
}

// TestPostgresFaultsMidRun (issue 9, "Faults", PostgreSQL): while discover
// runs, its sessions are ended with pg_terminate_backend (all of them once
// while idle, then one while it runs a statement), SELECT on one table is
// revoked once the table has been inventoried, and a view takes longer
// than --query-timeout to read. Dropped
// connections are retried after a pause and no task fails for them; the
// revoked table and the slow view fail their tasks, which are given up; the
// run goes on with the rest and exits 0; the report's uncertainties say
// what failed: the permission on the one, the timeout on the other.
func TestPostgresFaultsMidRun(t *testing.T) {
	if heavy.Race {
		t.Skip("statement timeouts on top of the race detector's slowdown: run without -race")
	}
	ctx := context.Background()
	dsn, name, admin, role := scratchPostgres(t, "faults", "reader")
	for _, s := range []string{
		`CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL, country CHAR(2))`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), amount NUMERIC(10,2), status TEXT)`,
		`CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price NUMERIC(8,2))`,
		`CREATE TABLE secret (id INTEGER PRIMARY KEY, code TEXT)`,
		`INSERT INTO customers SELECT i, 'user' || i || '@example.com', (ARRAY['FR','DE','US','JP'])[1 + i % 4] FROM generate_series(1, 2000) i`,
		`INSERT INTO orders SELECT i, 1 + i % 2000, (i % 500) + 0.99, (ARRAY['new','paid','shipped'])[1 + i % 3] FROM generate_series(1, 20000) i`,
		`INSERT INTO products SELECT i, 'product ' || i, i % 90 + 0.5 FROM generate_series(1, 500) i`,
		`INSERT INTO secret SELECT i, md5(i::text) FROM generate_series(1, 1000) i`,
		// Each row costs 0.2 s: reading the view whole takes 20 s.
		`CREATE FUNCTION slow_id(i INTEGER) RETURNS INTEGER LANGUAGE sql VOLATILE AS $$ SELECT i FROM (SELECT pg_sleep(0.2)) s $$`,
		`CREATE VIEW slow_v AS SELECT slow_id(g) AS id, g % 7 AS bucket FROM generate_series(1, 100) g`,
		`ANALYZE`,
		`CREATE ROLE ` + role + ` LOGIN`,
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
	u.User = url.User(role)

	out := t.TempDir()
	// One task at a time, so that the permission goes after the table was
	// inventoried and before it is profiled, whatever the machine's speed.
	c := startCLI(t, "--db", u.String(), "--out", out, "--progress", "plain", "-v", "--format", "json",
		"--query-timeout", "2s", "--parallel", "1")
	c.waitLine(t, "done  inventory secret")

	// Frozen mid-run: revoke, and end every session discover holds.
	cont := c.stop(t)
	var idle int
	_, err = admin.ExecContext(ctx, `REVOKE SELECT ON secret FROM `+role)
	if err == nil {
		err = admin.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = $1 AND usename = $2`, name, role).Scan(&idle)
	}
	cont()
	if err != nil {
		t.Fatal(err)
	}
	// Then one session in the middle of a statement, as soon as there is one.
	var active int
	for deadline := time.Now().Add(time.Minute); active == 0 && time.Now().Before(deadline); {
		if err := admin.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = $1 AND usename = $2 AND state = 'active'`, name, role).Scan(&active); err != nil {
			t.Fatal(err)
		}
		if active == 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Logf("terminated %d idle sessions, then %d running a statement", idle, active)
	if idle+active == 0 {
		t.Fatal("no session of discover was terminated: the fault was not injected")
	}

	code, log := c.wait(t)
	// The revoked table and the slow view could not be read: the run is
	// incomplete, and says so.
	if code != exitIncomplete {
		t.Fatalf("exit %d after the faults, want %d (incomplete):\n%s", code, exitIncomplete, log)
	}
	checkFailedTasks(t, log, func(line string) bool {
		return containsAny(line, "57P01", "terminating connection", "conn closed", "unexpected EOF", "connection reset")
	})
	_, r := readReport(t, out)
	checkComplete(t, r, "customers", "orders", "products")
	checkFaultedReport(t, r, log, "permission denied")
}
