package main

import (
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/report"
)

// TestTimeoutEndsRun (issue 9): --timeout ends the run within the deadline
// plus 5 s, even when a query would never finish on its own (a view that
// counts to two billion), with a full set of report files that say why
// the run stopped and what it did not finish. The view was never read, so
// the run is incomplete and exits 4 (issue 17).
func TestTimeoutEndsRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "slow.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL)`,
		`INSERT INTO items WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 5000) SELECT i, 'item ' || i, i * 0.5 FROM r`,
		// One row in 100,000 of the counting: reading any 10,000 of its
		// rows takes a billion steps, so no bounded read of it ends within
		// the deadline on any machine (a view of every step had its first
		// rows counted and profiled in 2.8 s, and the run then completed).
		`CREATE VIEW endless AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 2000000000) SELECT i, i % 7 AS k FROM r WHERE i % 100000 = 0`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	before := sha(t, path)
	out := t.TempDir()
	const deadline = 3 * time.Second
	start := time.Now()
	res := run(t, "--db", path, "--out", out, "--timeout", deadline.String(), "--progress", "plain")
	took := time.Since(start)
	if res.code != exitIncomplete {
		t.Fatalf("exit %d, want %d (incomplete)\nstderr:\n%s", res.code, exitIncomplete, res.stderr)
	}
	if last := lastLine(res.stderr); !strings.HasPrefix(last, "discover: This discovery is incomplete.") || !strings.Contains(last, "endless") {
		t.Errorf("the last line does not say the view endless was not read: %q", last)
	}
	if took > deadline+5*time.Second {
		t.Errorf("the run took %s with --timeout %s", took, deadline)
	}
	t.Logf("took %s", took)
	_, r := readReport(t, out)
	if r.Run.StopReason == nil || *r.Run.StopReason != "deadline" {
		t.Errorf("stop reason %v, want deadline", r.Run.StopReason)
	}
	// The inventory counts a view's rows only up to a bound (1,000,001 at
	// the default --sample-rows); were that reached within the deadline,
	// the view would be listed and counted and its profile would be what
	// the deadline stopped. Either way its data was not read.
	if r.Outcome == nil || r.Outcome.Status != "incomplete" ||
		!slices.ContainsFunc(r.Outcome.Unseen, func(u report.Unseen) bool {
			return (u.What == "table" || u.What == "profile") && u.Table == "endless" && strings.Contains(u.Reason, "deadline")
		}) {
		t.Errorf("outcome %+v, want incomplete with the view endless not read before the deadline", r.Outcome)
	}
	if len(r.Uncertainties) == 0 {
		t.Error("the report does not say what the deadline left undone")
	}
	found := false
	for _, tb := range r.Tables {
		if tb.Name == "items" && tb.RowCount != nil && *tb.RowCount == 5000 {
			found = true
		}
	}
	if !found {
		t.Errorf("items and its 5000 rows missing from the report: %+v", r.Tables)
	}
	if sha(t, path) != before {
		t.Error("the run changed the database file")
	}
}

// TestQueryBudget (issue 9): --max-queries bounds what the run sends to
// the database; once spent, the run stops as at its deadline, with a report
// that says so. The tests it had planned were not run: it is incomplete,
// exit 4 (issue 17), each of them named with the budget as the reason.
func TestQueryBudget(t *testing.T) {
	out := t.TempDir()
	res := run(t, "--demo", "--out", out, "--max-queries", "40", "--progress", "plain")
	if res.code != exitIncomplete {
		t.Fatalf("exit %d, want %d (incomplete)\nstderr:\n%s", res.code, exitIncomplete, res.stderr)
	}
	if last := lastLine(res.stderr); !strings.HasPrefix(last, "discover: This discovery is incomplete.") || !strings.Contains(last, "query budget spent") {
		t.Errorf("the last line does not say the query budget left tests undone: %q", last)
	}
	_, r := readReport(t, out)
	if r.Outcome == nil || r.Outcome.Status != "incomplete" || len(r.Outcome.Unseen) == 0 {
		t.Fatalf("outcome %+v, want incomplete", r.Outcome)
	}
	for _, u := range r.Outcome.Unseen {
		if u.Reason != "query budget spent" {
			t.Errorf("unseen %+v: want only what the spent budget left undone", u)
		}
	}
	if r.Run.Queries > 40 || r.Run.Queries < 30 {
		t.Errorf("%d queries with --max-queries 40", r.Run.Queries)
	}
	if r.Run.StopReason == nil || *r.Run.StopReason != "deadline" {
		t.Errorf("stop reason %v, want deadline", r.Run.StopReason)
	}
	found := false
	for _, u := range r.Uncertainties {
		found = found || strings.Contains(u, "budget of 40 queries")
	}
	if !found {
		t.Errorf("the report does not say the budget was spent: %q", r.Uncertainties)
	}
	if len(r.Tables) < 10 {
		t.Errorf("%d tables reported: what was found before the budget ran out is lost", len(r.Tables))
	}
	if res := run(t, "--demo", "--out", t.TempDir(), "--max-queries", "-1"); res.code != 2 || !strings.Contains(res.stderr, "--max-queries") {
		t.Errorf("--max-queries -1: exit %d, %s", res.code, res.stderr)
	}
}
