package orchestrator

import (
	"context"
	"errors"
	"fmt"

	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// TestOutcomeNamesWhatWasNotSeen: a table the source left out, a table
// whose inventory kept failing, and a task with no table that was given
// up make the run incomplete, each named with its reason; a run that saw
// everything is complete.
func TestOutcomeNamesWhatWasNotSeen(t *testing.T) {
	ctx := context.Background()
	cat, run := setup(t)
	x := &fakeExpert{name: "structural", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{
			{Expert: "structural", Name: "inventory t", Table: "t", Run: func(context.Context) error {
				return errors.New("inventory t: count rows: sqlite: query: database disk image is malformed (11)")
			}},
			{Expert: "structural", Name: "infer relationships", Run: func(context.Context) error {
				return errors.New("infer: statement timed out")
			}},
		}
	}}
	o := &Orchestrator{Source: &skippingSource{fakeSource{tables: oneTable()}}, Catalog: cat, Experts: []experts.Expert{x}, Config: cfg()}
	if _, err := o.Run(ctx, run); err != nil {
		t.Fatal(err)
	}
	got := storedOutcome(t, cat)
	want := catalog.OutcomeDoc{Status: catalog.OutcomeIncomplete, Tables: 2, Unseen: []catalog.Unseen{
		{What: catalog.UnseenTable, Table: "hr.salaries", Reason: "no SELECT privilege"},
		{What: catalog.UnseenTable, Table: "t", Kind: "table", Reason: "database disk image is malformed (11)"},
		{What: catalog.UnseenTest, Task: "structural: infer relationships", Reason: "statement timed out"},
	}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outcome\n got %+v\nwant %+v", got, want)
	}

	// Everything seen: complete, nothing listed.
	cat2, run2 := setup(t)
	full := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		if ok, _ := env.Has(ctx, catalog.KindTable, "t"); ok {
			return nil
		}
		return []experts.Task{{Expert: "fake", Name: "all", Run: func(ctx context.Context) error { return fullCoverage(ctx, env, 0.99) }}}
	}}
	o2 := &Orchestrator{Source: &fakeSource{tables: oneTable()}, Catalog: cat2, Experts: []experts.Expert{full}, Config: cfg()}
	if _, err := o2.Run(ctx, run2); err != nil {
		t.Fatal(err)
	}
	if got := storedOutcome(t, cat2); got.Status != catalog.OutcomeComplete || len(got.Unseen) != 0 || got.Tables != 1 {
		t.Errorf("complete run's outcome: %+v", got)
	}
}

// goneSource is a database that stopped answering: every statement fails.
type goneSource struct{ fakeSource }

func (g *goneSource) Query(context.Context, string, warehouse.QueryOptions) (*warehouse.Result, error) {
	return nil, errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
}

// TestDatabaseLostLeavesRunUnfinished: a task fails and the probe finds
// the database gone: the run ends with ErrDatabaseLost, unfinished (no
// stop reason, resumable), and the failure is not counted against the
// task, which a resumed run gives its full attempts.
func TestDatabaseLostLeavesRunUnfinished(t *testing.T) {
	saved := probeBackoff
	probeBackoff = []time.Duration{time.Millisecond, time.Millisecond}
	defer func() { probeBackoff = saved }()
	ctx := context.Background()
	cat, run := setup(t)
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{{Expert: "fake", Name: "read t", Table: "t", Run: func(ctx context.Context) error {
			return errors.New("connection refused")
		}}}
	}}
	o := &Orchestrator{Source: &goneSource{fakeSource{tables: oneTable()}}, Catalog: cat, Experts: []experts.Expert{x}, Config: cfg()}
	got, err := o.Run(ctx, run)
	forgetKey(t, cat, run.ID)
	if !errors.Is(err, ErrDatabaseLost) {
		t.Fatalf("Run: %v, want ErrDatabaseLost", err)
	}
	if got.FinishedAt != nil || got.StopReason != "" {
		t.Errorf("run marked finished (%v, %q)", got.FinishedAt, got.StopReason)
	}
	if _, err := cat.LatestRun(ctx, true); err != nil {
		t.Errorf("no unfinished run to resume: %v", err)
	}
	if n := state(t, cat, run.ID).Failures["fake/read t"]; n != 0 {
		t.Errorf("the lost database counted %d failures against the task", n)
	}
}

func TestCause(t *testing.T) {
	for in, want := range map[string]string{
		"inventory Artist: count rows: sqlite: query: database disk image is malformed (11)": "database disk image is malformed (11)",
		"postgres: query: ERROR: permission denied for table secret (SQLSTATE 42501)":        "permission denied for table secret (SQLSTATE 42501)",
		// A PostgreSQL message is the server's whole sentence, the file or
		// server it names included.
		`profile f: postgres: query: ERROR: could not open file "/data/x.csv" for reading: No such file or directory (SQLSTATE 58P01)`: `could not open file "/data/x.csv" for reading: No such file or directory (SQLSTATE 58P01)`,
		`ERROR: could not connect to server "s": connection to server at "h", port 1 failed: Connection refused (SQLSTATE 08001)`:      `could not connect to server "s": connection to server at "h", port 1 failed: Connection refused (SQLSTATE 08001)`,
		"profile x: query: EOF": "profile x: query: EOF", // too short to stand alone
		"boom":                  "boom",
		"test ref-1: hypothesis ref-1: query budget spent":                                      "query budget spent",
		"test X: sqlite: query: no such column: p.RESTAURANT_ID (1)":                            "no such column: p.RESTAURANT_ID (1)",
		"inventory v: count rows: sqlite: query: timed out after 1s: context deadline exceeded": "timed out after 1s: context deadline exceeded",
		// DuckDB's and PostgreSQL's messages go on with the statement.
		"profile s: duckdb: query: Binder Error: Referenced column \"rowid\" not found in FROM clause!\nCandidate bindings: \"n\"\n\nLINE 1: ...M (SELECT * FROM \"s\" WHERE hash(rowid + 1) < 2::UBIGINT) s\n                                         ^": "Referenced column \"rowid\" not found in FROM clause!",
	} {
		if got := Cause(in); got != want {
			t.Errorf("Cause(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGivenUpMilestoneReleasesWaiters: a task that declared the table
// milestone it reaches, given up, counts as that milestone reached for its
// table — an expert waiting for every table's inventory plans its work in
// the next round instead of waiting for ever — and the outcome names the
// give-up as the reason the table was not seen, by its milestone.
func TestGivenUpMilestoneReleasesWaiters(t *testing.T) {
	ctx := context.Background()
	cat, run := setup(t)
	inv := &fakeExpert{name: "inv", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		if up, _ := env.GaveUp(ctx, experts.Inventoried, "t"); up {
			return nil
		}
		return []experts.Task{{Expert: "inv", Name: "read t", Table: "t", Reaches: &experts.Inventoried,
			Run: func(context.Context) error { return errors.New("read t: no such table: t") }}}
	}}
	waitedFrom := 0
	waiter := &fakeExpert{name: "waiter", bystander: true, plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		if all, err := env.AllReached(ctx, experts.Inventoried); err != nil || !all || waitedFrom > 0 {
			return nil
		}
		waitedFrom = env.Iteration
		return nil
	}}
	o := &Orchestrator{Source: &fakeSource{tables: oneTable()}, Catalog: cat, Experts: []experts.Expert{inv, waiter}, Config: cfg()}
	if _, err := o.Run(ctx, run); err != nil {
		t.Fatal(err)
	}
	s := state(t, cat, run.ID)
	if g := s.GivenUp["inv/read t"]; g.Milestone != experts.Inventoried.Key() || g.Table != "t" {
		t.Fatalf("given up %+v, want the inventory milestone of t", s.GivenUp)
	}
	// MaxTaskFailures is 2: the task fails in rounds 1 and 2.
	if waitedFrom != 3 {
		t.Fatalf("the waiter saw every table inventoried from round %d, want 3 (after the give-up)", waitedFrom)
	}
	got := storedOutcome(t, cat)
	if len(got.Unseen) == 0 || got.Unseen[0].Table != "t" || got.Unseen[0].Reason != "no such table: t" {
		t.Fatalf("outcome %+v, want t unseen for its inventory's error", got)
	}
}

// storedOutcome reads the outcome the run saved in cat.
func storedOutcome(t *testing.T, cat *catalog.Catalog) catalog.OutcomeDoc {
	t.Helper()
	e, err := cat.Get(context.Background(), catalog.KindOutcome, "outcome")
	if err != nil {
		t.Fatal(err)
	}
	var got catalog.OutcomeDoc
	if err := e.Decode(&got); err != nil {
		t.Fatal(err)
	}
	return got
}
