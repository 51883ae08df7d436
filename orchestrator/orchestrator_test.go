package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/registry"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// fakeSource is a Source with fixed tables; queries are not expected.
type fakeSource struct{ tables []warehouse.Table }

var _ warehouse.Source = (*fakeSource)(nil)

func (f *fakeSource) Dialect() warehouse.Dialect                                   { return sqlite.Dialect{} }
func (f *fakeSource) Database() string                                             { return "fake" }
func (f *fakeSource) Tables(context.Context) ([]warehouse.Table, error)            { return f.tables, nil }
func (f *fakeSource) RowCount(context.Context, warehouse.TableName) (int64, error) { return 0, nil }

// Query answers only the orchestrator's probe (SELECT 1): a fake that
// answered nothing would be a database that is gone.
func (f *fakeSource) Query(_ context.Context, q string, _ warehouse.QueryOptions) (*warehouse.Result, error) {
	if q == "SELECT 1" {
		return &warehouse.Result{Columns: []string{"1"}, Rows: [][]any{{int64(1)}}}, nil
	}
	return nil, errors.New("fake: no queries")
}
func (f *fakeSource) QuoteIdent(s string) string              { return `"` + s + `"` }
func (f *fakeSource) QuoteTable(t warehouse.TableName) string { return `"` + t.Name + `"` }
func (f *fakeSource) Close() error                            { return nil }

// fakeExpert plans with a function field. A fake stands in for the real
// experts' work, so it declares their coverage; when a run has several,
// only the first does (runOn).
type fakeExpert struct {
	name      string
	plan      func(ctx context.Context, env *experts.Env) []experts.Task
	bystander bool // declares no coverage
}

func (f *fakeExpert) Name() string { return f.name }
func (f *fakeExpert) Coverage(tables []warehouse.Table) []experts.Unit {
	if f.bystander {
		return nil
	}
	return experts.CoverageOf(registry.New(), tables)
}
func (f *fakeExpert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	return f.plan(ctx, env), nil
}

func oneTable() []warehouse.Table {
	return []warehouse.Table{{Name: warehouse.TableName{Name: "t"}, Kind: "table",
		Columns: []warehouse.Column{{Name: "a", Position: 1}, {Name: "b", Position: 2}}}}
}

func setup(t *testing.T) (*catalog.Catalog, catalog.Run) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	run := catalog.Run{ID: "r1", DSN: "fake.db", Dialect: "sqlite", Database: "fake", StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	return cat, run
}

func runWith(t *testing.T, cfg Config, xs ...experts.Expert) (catalog.Run, *catalog.Catalog, []Event) {
	t.Helper()
	cat, run := setup(t)
	return runOn(t, context.Background(), cat, run, cfg, xs...)
}

func runOn(t *testing.T, ctx context.Context, cat *catalog.Catalog, run catalog.Run, cfg Config, xs ...experts.Expert) (catalog.Run, *catalog.Catalog, []Event) {
	t.Helper()
	ch := make(chan Event, 16)
	var evs []Event
	done := make(chan struct{})
	go func() {
		for e := range ch {
			evs = append(evs, e)
		}
		close(done)
	}()
	for _, x := range xs[min(1, len(xs)):] {
		if f, ok := x.(*fakeExpert); ok {
			f.bystander = true
		}
	}
	o := &Orchestrator{Source: &fakeSource{tables: oneTable()}, Catalog: cat, Experts: xs, Config: cfg, Events: ch}
	got, err := o.Run(ctx, run)
	close(ch)
	<-done
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return got, cat, evs
}

func cfg() Config {
	return Config{MaxIterations: 10, TargetConfidence: 0.95, TargetCoverage: 0.95, Parallel: 2}
}

func state(t *testing.T, cat *catalog.Catalog, id string) catalog.LoopState {
	t.Helper()
	r, err := cat.GetRun(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var s catalog.LoopState
	if err := json.Unmarshal(r.State, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// fullCoverage saves every unit Measure expects for oneTable.
func fullCoverage(ctx context.Context, env *experts.Env, conf float64) error {
	save := func(kind, key string) error {
		// a fake expert's documents: only the units count here
		doc, _ := json.Marshal(map[string]string{"k": key})
		return env.For("fake").Save(ctx, catalog.Entry{Kind: kind, Key: key, Document: doc, Confidence: conf})
	}
	for _, u := range [][2]string{
		{catalog.KindTable, "t"}, {catalog.KindTableStats, "t"}, {catalog.KindEntity, "t"},
		{catalog.KindProfile, "t.a"}, {catalog.KindProfile, "t.b"},
		{catalog.KindSemantic, "t.a"}, {catalog.KindSemantic, "t.b"}, {catalog.KindDomain, "domain"},
		{catalog.KindProgress, "structural:patterns"},
	} {
		if err := save(u[0], u[1]); err != nil {
			return err
		}
	}
	return nil
}

func TestStopsOnConfidence(t *testing.T) {
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{{Expert: "fake", Name: "all", Run: func(ctx context.Context) error { return fullCoverage(ctx, env, 1.0) }}}
	}}
	run, cat, _ := runWith(t, cfg(), x)
	if run.StopReason != StopConfidence {
		t.Fatalf("stop reason %q, want confidence", run.StopReason)
	}
	s := state(t, cat, run.ID)
	if s.Iteration != 1 || s.Coverage != 1 || s.Confidence != 1 || s.Phase != 4 {
		t.Fatalf("state %+v", s)
	}
	if s.Contributions["fake"] != 8 { // progress markers are bookkeeping, not contributions
		t.Fatalf("contributions %v, want fake=8", s.Contributions)
	}
	if run.FinishedAt == nil {
		t.Fatal("finished_at not set")
	}
}

func TestStopsOnCoverageWhenLessSure(t *testing.T) {
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{{Expert: "fake", Name: "all", Run: func(ctx context.Context) error { return fullCoverage(ctx, env, 0.5) }}}
	}}
	run, cat, _ := runWith(t, cfg(), x)
	if run.StopReason != StopCoverage {
		t.Fatalf("stop reason %q, want coverage", run.StopReason)
	}
	if s := state(t, cat, run.ID); s.Confidence != 0.5 {
		t.Fatalf("confidence %v, want 0.5 (mean over units)", s.Confidence)
	}
}

func TestConsensusWhenNoExpertHasWork(t *testing.T) {
	calls := 0
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		calls++
		if calls > 1 {
			return nil
		}
		return []experts.Task{{Expert: "fake", Name: "one", Run: func(ctx context.Context) error {
			return catalog.Tables.Save(ctx, env, "t", catalog.TableDoc{Name: "t"}, 1, nil)
		}}}
	}}
	run, cat, _ := runWith(t, cfg(), x)
	if run.StopReason != StopConsensus {
		t.Fatalf("stop reason %q, want consensus", run.StopReason)
	}
	s := state(t, cat, run.ID)
	if s.Iteration != 1 {
		t.Fatalf("iterations %d, want 1 (the empty round does not count)", s.Iteration)
	}
	if got := fmt.Sprint(s.Satisfied); got != "[fake]" {
		t.Fatalf("satisfied %s", got)
	}
}

func TestDiminishingReturns(t *testing.T) {
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		// one new finding per iteration: below the threshold of 2
		return []experts.Task{{Expert: "fake", Name: "trickle", Run: func(ctx context.Context) error {
			return catalog.Insights.Save(ctx, env, fmt.Sprint("i", env.Iteration), catalog.InsightDoc{Description: fmt.Sprint(env.Iteration)}, 1, nil)
		}}}
	}}
	run, cat, _ := runWith(t, cfg(), x)
	if run.StopReason != StopDiminishing {
		t.Fatalf("stop reason %q, want diminishing_returns", run.StopReason)
	}
	s := state(t, cat, run.ID)
	if s.Iteration != 3 || fmt.Sprint(s.NewInsights) != "[1 1 1]" {
		t.Fatalf("iteration %d new insights %v", s.Iteration, s.NewInsights)
	}
}

func TestMaxIterations(t *testing.T) {
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{{Expert: "fake", Name: "busy", Run: func(ctx context.Context) error {
			for i := 0; i < 3; i++ {
				if err := catalog.Insights.Save(ctx, env, fmt.Sprint("i", env.Iteration, "-", i), catalog.InsightDoc{Description: fmt.Sprint(i)}, 1, nil); err != nil {
					return err
				}
			}
			return nil
		}}}
	}}
	c := cfg()
	c.MaxIterations = 4
	run, cat, _ := runWith(t, c, x)
	if run.StopReason != StopMaxIter {
		t.Fatalf("stop reason %q, want max_iterations", run.StopReason)
	}
	if s := state(t, cat, run.ID); s.Iteration != 4 {
		t.Fatalf("iterations %d, want 4", s.Iteration)
	}
}

func TestDeadlineStopsCleanly(t *testing.T) {
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{
			{Expert: "fake", Name: "quick", Run: func(ctx context.Context) error {
				return catalog.Tables.Save(ctx, env, "t", catalog.TableDoc{Name: "t"}, 1, nil)
			}},
			{Expert: "fake", Name: "slow", Run: func(ctx context.Context) error {
				<-ctx.Done()
				return ctx.Err()
			}},
		}
	}}
	cat, run := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	got, _, evs := runOn(t, ctx, cat, run, cfg(), x)
	if got.StopReason != StopDeadline {
		t.Fatalf("stop reason %q, want deadline", got.StopReason)
	}
	for _, e := range evs {
		if e.Kind == EventTaskFailed {
			t.Fatalf("a task cancelled by the deadline was reported as failed: %+v", e)
		}
	}
	// What was found before the deadline is kept, and the gap is said.
	if _, err := cat.Get(context.Background(), catalog.KindTable, "t"); err != nil {
		t.Fatalf("finding made before the deadline lost: %v", err)
	}
	if _, err := cat.Get(context.Background(), catalog.KindUncertainty, "orchestrator:unfinished"); err != nil {
		t.Fatalf("no uncertainty about unfinished work: %v", err)
	}
}

func TestFailingTaskIsGivenUp(t *testing.T) {
	var runs atomic.Int32
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{{Expert: "fake", Name: "broken", Run: func(ctx context.Context) error {
			runs.Add(1)
			return errors.New("boom")
		}}}
	}}
	run, cat, evs := runWith(t, cfg(), x)
	if runs.Load() != 2 {
		t.Fatalf("task ran %d times, want 2 (MaxTaskFailures)", runs.Load())
	}
	if run.StopReason != StopConsensus {
		t.Fatalf("stop reason %q, want consensus once the broken task is given up", run.StopReason)
	}
	e, err := cat.Get(context.Background(), catalog.KindUncertainty, "failed:fake:broken")
	if err != nil {
		t.Fatalf("given-up task not recorded: %v", err)
	}
	var d catalog.UncertaintyDoc
	if err := e.Decode(&d); err != nil || d.Description == "" {
		t.Fatalf("uncertainty %s: %v", e.Document, err)
	}
	failed := 0
	for _, ev := range evs {
		if ev.Kind == EventTaskFailed {
			failed++
		}
	}
	if failed != 2 {
		t.Fatalf("%d task_failed events, want 2", failed)
	}
}

func TestPanickingTaskDoesNotCrash(t *testing.T) {
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{{Expert: "fake", Name: "panics", Run: func(ctx context.Context) error { panic("bad table") }}}
	}}
	run, _, evs := runWith(t, cfg(), x)
	if run.StopReason == "" {
		t.Fatal("no stop reason")
	}
	found := false
	for _, e := range evs {
		if e.Kind == EventTaskFailed && e.Err == "panic: bad table" {
			found = true
		}
	}
	if !found {
		t.Fatal("panic not reported as a task failure")
	}
}

func TestParallelLimit(t *testing.T) {
	var cur, peak atomic.Int32
	var mu sync.Mutex
	calls := 0
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if !first {
			return nil
		}
		var ts []experts.Task
		for i := 0; i < 8; i++ {
			ts = append(ts, experts.Task{Expert: "fake", Name: fmt.Sprint("t", i), Run: func(ctx context.Context) error {
				n := cur.Add(1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				time.Sleep(20 * time.Millisecond)
				cur.Add(-1)
				return nil
			}})
		}
		return ts
	}}
	c := cfg()
	c.Parallel = 3
	runWith(t, c, x)
	if p := peak.Load(); p != 3 {
		t.Fatalf("peak concurrency %d, want exactly 3", p)
	}
}

func TestResumeContinuesIteration(t *testing.T) {
	cat, run := setup(t)
	run.State = []byte(`{"iteration":2,"phase":1,"queries":7,"new_insights":[5,4]}`)
	first := 0
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		// Once the targets are met, the loop asks for new work once more
		// (at iteration 4, which does not count when there is none).
		if first == 0 {
			first = env.Iteration
		}
		if first != 3 {
			t.Errorf("resumed at iteration %d, want 3", first)
		}
		return []experts.Task{{Expert: "fake", Name: "all", Run: func(ctx context.Context) error { return fullCoverage(ctx, env, 1) }}}
	}}
	got, _, _ := runOn(t, context.Background(), cat, run, cfg(), x)
	s := state(t, cat, got.ID)
	if s.Iteration != 3 || s.Queries != 7 || fmt.Sprint(s.NewInsights) != "[5 4 9]" {
		t.Fatalf("state after resume %+v", s)
	}
}

func TestMeasurePhasesAndRelationships(t *testing.T) {
	ctx := context.Background()
	cat, run := setup(t)
	var q atomic.Int64
	env := experts.NewEnv(&fakeSource{}, cat, run.ID, 1, 1, oneTable(), experts.Options{}, &q).For("fake")
	m, err := Measure(ctx, cat, run.ID, oneTable(), registry.New())
	if err != nil {
		t.Fatal(err)
	}
	if m.Units != 9 || m.Covered != 0 || m.Phase != 1 {
		t.Fatalf("empty: %+v", m)
	}
	if err := fullCoverage(ctx, env, 0.8); err != nil {
		t.Fatal(err)
	}
	// An untested relationship is pending work (phase 3).
	if err := catalog.Relationships.Save(ctx, env, "t(a)->t(b)", catalog.RelationshipDoc{}, 0.9, nil); err != nil {
		t.Fatal(err)
	}
	m, _ = Measure(ctx, cat, run.ID, oneTable(), registry.New())
	if m.Units != 10 || m.Covered != 9 || m.Phase != 3 {
		t.Fatalf("with untested relationship: %+v", m)
	}
	h := catalog.HypothesisDoc{ID: "h1", Status: "confirmed", Subject: "t(a)->t(b)"}
	if err := catalog.Hypotheses.Save(ctx, env, "h1", h, 1, nil); err != nil {
		t.Fatal(err)
	}
	m, _ = Measure(ctx, cat, run.ID, oneTable(), registry.New())
	want := (9*0.8 + 0.9) / 10
	if m.Units != 10 || m.Covered != 10 || m.Phase != 4 || abs(m.Confidence-want) > 1e-9 {
		t.Fatalf("tested: %+v want confidence %v", m, want)
	}
}

func TestFilter(t *testing.T) {
	mk := func(names ...string) []warehouse.Table {
		var ts []warehouse.Table
		for _, n := range names {
			ts = append(ts, warehouse.Table{Name: warehouse.TableName{Name: n}})
		}
		return ts
	}
	all := mk("orders", "order_items", "tmp_x", "Customers", "users_backup")
	cases := []struct {
		inc, exc []string
		want     string
	}{
		{nil, nil, "[Customers order_items orders tmp_x users_backup]"},
		{[]string{"order*"}, nil, "[order_items orders]"},
		{nil, []string{"tmp_*", "*_backup"}, "[Customers order_items orders]"},
		{[]string{"customers"}, nil, "[Customers]"},
		{[]string{"o*"}, []string{"*items"}, "[orders]"},
	}
	for _, c := range cases {
		got, err := Filter(all, c.inc, c.exc)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, t := range got {
			names = append(names, t.Name.Name)
		}
		if fmt.Sprint(names) != c.want {
			t.Errorf("Filter(%v, %v) = %v, want %s", c.inc, c.exc, names, c.want)
		}
	}
	if _, err := Filter(all, []string{"["}, nil); !errors.Is(err, warehouse.ErrBadInput) {
		t.Errorf("bad glob: %v", err)
	}
}

func TestPlainWriterLines(t *testing.T) {
	ts := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := PlainWriter{}
	got := p.Line(Event{Time: ts, Kind: EventIterationDone, Iteration: 2, NewInsights: 14, Confidence: 0.8123, Coverage: 0.5, Queries: 31})
	want := "03:04:05 iteration 2 done: 14 new findings, confidence 0.81, coverage 0.50, 31 queries"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if (PlainWriter{Quiet: true}).Line(Event{Kind: EventTaskDone}) != "" {
		t.Fatal("quiet shows task lines")
	}
	if (PlainWriter{Quiet: true}).Line(Event{Time: ts, Kind: EventTaskFailed, Expert: "query", Task: "x", Err: "a\nb"}) != "03:04:05   query       FAIL  x: a b" {
		t.Fatal("failure line")
	}
	// A task the run retries: its first failure is not yet one that
	// stands, so quiet leaves it out; the error's repeat of the task's
	// name goes.
	first := Event{Time: ts, Kind: EventTaskFailed, Expert: "structural", Task: "inventory film", Err: "inventory film: count rows: malformed",
		Attempt: 1, MaxAttempts: 2}
	last := first
	last.Attempt = 2
	for _, c := range []struct {
		w    PlainWriter
		e    Event
		want string
	}{
		{PlainWriter{Quiet: true}, first, ""},
		{PlainWriter{}, first, "03:04:05   structural  FAIL  inventory film: count rows: malformed (try 1 of 2, to be retried)"},
		{PlainWriter{Quiet: true}, last, "03:04:05   structural  FAIL  inventory film: count rows: malformed (try 2 of 2, given up)"},
		{PlainWriter{}, last, "03:04:05   structural  FAIL  inventory film: count rows: malformed (try 2 of 2, given up)"},
	} {
		if got := c.w.Line(c.e); got != c.want {
			t.Errorf("quiet %v, try %d: %q, want %q", c.w.Quiet, c.e.Attempt, got, c.want)
		}
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

type skippingSource struct{ fakeSource }

func (s *skippingSource) Skipped(context.Context) ([]warehouse.Skipped, error) {
	return []warehouse.Skipped{{Table: warehouse.TableName{Schema: "hr", Name: "salaries"}, Reason: "no SELECT privilege"}}, nil
}

func TestSkippedTablesBecomeUncertainties(t *testing.T) {
	cat, run := setup(t)
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task { return nil }}
	o := &Orchestrator{Source: &skippingSource{fakeSource{tables: oneTable()}}, Catalog: cat, Experts: []experts.Expert{x}, Config: cfg()}
	if _, err := o.Run(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	e, err := cat.Get(context.Background(), catalog.KindUncertainty, "skipped:hr.salaries")
	if err != nil {
		t.Fatalf("skipped table not reported: %v", err)
	}
	var d catalog.UncertaintyDoc
	e.Decode(&d)
	if d.Description != "hr.salaries was not examined: no SELECT privilege." || e.RunID != run.ID {
		t.Fatalf("uncertainty %+v", d)
	}
}

func TestCancelLeavesRunUnfinished(t *testing.T) {
	cat, run := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	x := &fakeExpert{name: "fake", plan: func(_ context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{{Expert: "fake", Name: "wait", Run: func(ctx context.Context) error {
			cancel()
			<-ctx.Done()
			return ctx.Err()
		}}}
	}}
	o := &Orchestrator{Source: &fakeSource{tables: oneTable()}, Catalog: cat, Experts: []experts.Expert{x}, Config: cfg()}
	got, err := o.Run(ctx, run)
	forgetKey(t, cat, run.ID)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if got.FinishedAt != nil || got.StopReason != "" {
		t.Fatalf("a cancelled run was finished: %+v", got)
	}
	if r, err := cat.LatestRun(context.Background(), true); err != nil || r.ID != run.ID {
		t.Fatalf("cancelled run not resumable: %v", err)
	}
}

func TestCollaborateSettlesResolvedUncertainties(t *testing.T) {
	ctx := context.Background()
	cat, run := setup(t)
	var q atomic.Int64
	tables := []warehouse.Table{{Name: warehouse.TableName{Name: "orders"}, Kind: "table", Columns: []warehouse.Column{{Name: "customer_id", Position: 1}}}}
	env := experts.NewEnv(&fakeSource{}, cat, run.ID, 1, 2, tables, experts.Options{}, &q)
	sem := catalog.SemanticDoc{Table: "orders", Column: "customer_id", SemanticType: "foreign_key"}
	if err := catalog.Semantics.Save(ctx, env.For("semantic"), "orders.customer_id", sem, 0.7, nil); err != nil {
		t.Fatal(err)
	}
	prof := catalog.ProfileDoc{Table: "orders", Column: "customer_id", Rows: 10}
	if err := catalog.Profiles.Save(ctx, env.For("statistical"), "orders.customer_id", prof, 1, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := collaborate(ctx, env); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Get(ctx, catalog.KindUncertainty, "unexplained_reference:orders.customer_id"); err != nil {
		t.Fatalf("an unexplained reference is not reported: %v", err)
	}
	// A later round infers the relationship: the doubt is settled.
	rel := catalog.RelationshipDoc{FromTable: "orders", FromColumns: []string{"customer_id"}, ToTable: "customers", ToColumns: []string{"id"}, Source: "inferred"}
	if err := catalog.Relationships.Save(ctx, env.For("structural"), "orders(customer_id)->customers(id)", rel, 0.9, nil); err != nil {
		t.Fatal(err)
	}
	n, err := collaborate(ctx, env)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Get(ctx, catalog.KindUncertainty, "unexplained_reference:orders.customer_id"); !errors.Is(err, catalog.ErrNotFound) {
		t.Fatalf("a settled uncertainty lingers: %v", err)
	}
	if n != 1 {
		t.Fatalf("collaborate reported %d changes, want 1 (the removal)", n)
	}
}

// TestFollowUpsAfterTargets: when the targets are met, tasks the last round
// made possible still run (a relationship found in the last round gets its
// test), and the stop reason stays the target's; work already done is not
// run again, and the settling is bounded.
func TestFollowUpsAfterTargets(t *testing.T) {
	var rounds []string
	x := &fakeExpert{name: "fake", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		ts := []experts.Task{{Expert: "fake", Name: "all", Run: func(ctx context.Context) error { return fullCoverage(ctx, env, 1.0) }}}
		// Each round's findings lead to one more task, for four rounds.
		if env.Iteration >= 2 && env.Iteration <= 4 {
			name := fmt.Sprint("follow-up ", env.Iteration)
			ts = append(ts, experts.Task{Expert: "fake", Name: name, Run: func(ctx context.Context) error {
				rounds = append(rounds, name)
				return catalog.Insights.Save(ctx, env, name, catalog.InsightDoc{Description: fmt.Sprint(env.Iteration)}, 1, nil)
			}})
		}
		return ts
	}}
	run, cat, _ := runWith(t, cfg(), x)
	if run.StopReason != StopConfidence {
		t.Fatalf("stop reason %q, want confidence", run.StopReason)
	}
	// Round 1 meets the targets; rounds 2, 3 and 4 run only their new
	// follow-up; settling ends after three rounds.
	if s := state(t, cat, run.ID); s.Iteration != 4 || fmt.Sprint(rounds) != "[follow-up 2 follow-up 3 follow-up 4]" {
		t.Fatalf("iterations %d, follow-ups run %v", s.Iteration, rounds)
	}
}

// TestCollaborateResolvesIdentifierContradiction: an identifier whose exact
// profile shows repeated values is a contradiction the data settles (an
// insight naming both sides), not an uncertainty; from a sample it stays an
// uncertainty; once the semantic expert revises the type, it is gone.
func TestCollaborateResolvesIdentifierContradiction(t *testing.T) {
	ctx := context.Background()
	cat, run := setup(t)
	var q atomic.Int64
	tables := []warehouse.Table{{Name: warehouse.TableName{Name: "parts"}, Kind: "table", Columns: []warehouse.Column{{Name: "part_no", Position: 1}}}}
	env := experts.NewEnv(&fakeSource{}, cat, run.ID, 1, 2, tables, experts.Options{}, &q)
	save := func(kind, key string, doc any) {
		t.Helper()
		en, err := catalog.NewEntry(kind, key, doc)
		if err != nil {
			t.Fatal(err)
		}
		en.Confidence = 0.8
		if err := env.For("test").Save(ctx, en); err != nil {
			t.Fatal(err)
		}
	}
	d := int64(460)
	save(catalog.KindSemantic, "parts.part_no", catalog.SemanticDoc{Table: "parts", Column: "part_no", SemanticType: "identifier", Reasons: []string{"named like a key"}})
	save(catalog.KindProfile, "parts.part_no", catalog.ProfileDoc{Table: "parts", Column: "part_no", Rows: 500, DistinctCount: &d})
	if _, err := collaborate(ctx, env); err != nil {
		t.Fatal(err)
	}
	e, err := cat.Get(ctx, catalog.KindInsight, "contradiction:identifier:parts.part_no")
	if err != nil {
		t.Fatalf("no settled contradiction: %v", err)
	}
	var ins catalog.InsightDoc
	e.Decode(&ins)
	if ins.Kind != "contradiction" || !strings.Contains(ins.Description, "its 500 rows hold 460 distinct values") ||
		!strings.Contains(ins.Description, "named like a key") || !strings.Contains(ins.Description, "part_no does not identify the rows of parts") {
		t.Errorf("contradiction: %+v", ins)
	}
	if _, err := cat.Get(ctx, catalog.KindUncertainty, "conflict:identifier:parts.part_no"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("a contradiction the data settles is also an uncertainty: %v", err)
	}
	// From a sample the counts settle nothing.
	save(catalog.KindProfile, "parts.part_no", catalog.ProfileDoc{Table: "parts", Column: "part_no", Rows: 500, DistinctCount: &d, Sampled: true, DistinctIsEstimate: true})
	if _, err := collaborate(ctx, env); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Get(ctx, catalog.KindUncertainty, "conflict:identifier:parts.part_no"); err != nil {
		t.Errorf("a sampled contradiction is not left to the reader: %v", err)
	}
	if _, err := cat.Get(ctx, catalog.KindInsight, "contradiction:identifier:parts.part_no"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("a contradiction no longer settled lingers: %v", err)
	}
	// The semantic expert revises the type: nothing is left.
	save(catalog.KindSemantic, "parts.part_no", catalog.SemanticDoc{Table: "parts", Column: "part_no", SemanticType: "code"})
	if _, err := collaborate(ctx, env); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Get(ctx, catalog.KindUncertainty, "conflict:identifier:parts.part_no"); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("a revised contradiction lingers: %v", err)
	}
}

// TestStemFoldsPlurals: a question's words and a table's meet on the
// singular every expert reads names with, including the plurals a suffix
// rule gets wrong (statuses, species, analyses).
func TestStemFoldsPlurals(t *testing.T) {
	for _, c := range [][2]string{{"orders", "order"}, {"Categories", "category"}, {"statuses", "status"},
		{"status", "status"}, {"addresses", "address"}, {"species", "species"}, {"analyses", "analysis"}, {"people", "person"}} {
		if got := stem(c[0]); got != c[1] {
			t.Errorf("stem(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// TestRunCostsSayWhereTheTimeWent: the run's state keeps each expert's
// task count, failures and summed task time, and the slowest task runs:
// a 60 ms task of "slow" outweighs "quick"'s, the broken task's try counts
// as a failed run, and the slowest list is slowest first.
func TestRunCostsSayWhereTheTimeWent(t *testing.T) {
	slow := &fakeExpert{name: "slow", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{{Expert: "slow", Name: "wait", Run: func(ctx context.Context) error {
			time.Sleep(60 * time.Millisecond)
			return fullCoverage(ctx, env, 1)
		}}}
	}}
	quick := &fakeExpert{name: "quick", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		return []experts.Task{
			{Expert: "quick", Name: "ok", Run: func(context.Context) error { return nil }},
			{Expert: "quick", Name: "broken", Run: func(context.Context) error { return errors.New("boom") }},
		}
	}}
	run, cat, _ := runWith(t, cfg(), slow, quick)
	c := state(t, cat, run.ID).Costs
	if c == nil {
		t.Fatal("no costs in the run's state")
	}
	s, q := c.Experts["slow"], c.Experts["quick"]
	if s.Tasks < 1 || s.Seconds < 0.06 || s.Failed != 0 {
		t.Errorf("slow: %+v, want at least one task of 60 ms, none failed", s)
	}
	if q.Failed < 1 || q.Tasks < 2 || q.Seconds >= s.Seconds {
		t.Errorf("quick: %+v, want the broken task's failed try among at least 2 runs, less time than slow's %.3f s", q, s.Seconds)
	}
	if len(c.Slowest) == 0 || c.Slowest[0].Expert != "slow" || c.Slowest[0].Task != "wait" || c.Slowest[0].Seconds < 0.06 {
		t.Fatalf("slowest %+v, want slow/wait first", c.Slowest)
	}
	for i := 1; i < len(c.Slowest); i++ {
		if c.Slowest[i].Seconds > c.Slowest[i-1].Seconds {
			t.Errorf("slowest not in order: %+v", c.Slowest)
		}
	}
}

// pipedExpert is a fakeExpert whose tasks may start in the round that makes
// them ready (Pipelined).
type pipedExpert struct{ fakeExpert }

func (p *pipedExpert) Pipelined() bool { return true }

// TestPipelinedTasksStartInTheRound: a task of a pipelined expert that a
// finished task makes ready starts at once, in the same round, while the
// round's long task still runs (before, it waited for the next round,
// leaving the cores to the long task alone); an expert that is not
// pipelined, ready at the same moment, waits for the next round as before.
func TestPipelinedTasksStartInTheRound(t *testing.T) {
	var ready atomic.Bool
	release := make(chan struct{})
	var pipedIn, lateIn atomic.Int32
	var released atomic.Bool
	long := &fakeExpert{name: "long", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		if env.Iteration != 1 {
			return nil
		}
		return []experts.Task{
			{Expert: "long", Name: "quick", Run: func(context.Context) error { ready.Store(true); return nil }},
			{Expert: "long", Name: "long", Run: func(ctx context.Context) error {
				select {
				case <-release:
					released.Store(true)
				case <-time.After(5 * time.Second):
				}
				return fullCoverage(ctx, env, 1)
			}},
		}
	}}
	readyTask := func(name string, in *atomic.Int32, then func()) func(ctx context.Context, env *experts.Env) []experts.Task {
		return func(ctx context.Context, env *experts.Env) []experts.Task {
			if !ready.Load() || in.Load() != 0 {
				return nil
			}
			it := env.Iteration
			return []experts.Task{{Expert: name, Name: name, Run: func(context.Context) error {
				in.Store(int32(it))
				then()
				return nil
			}}}
		}
	}
	piped := &pipedExpert{fakeExpert{name: "piped"}}
	piped.plan = readyTask("piped", &pipedIn, func() { close(release) })
	late := &fakeExpert{name: "late"}
	late.plan = readyTask("late", &lateIn, func() {})
	_, _, evs := runWith(t, cfg(), long, late, piped)
	if got := pipedIn.Load(); got != 1 {
		t.Errorf("the pipelined task ran in round %d, want 1 (the round that made it ready)", got)
	}
	if !released.Load() {
		t.Error("the round's long task ended before the pipelined task ran: it did not start while the round ran")
	}
	if got := lateIn.Load(); got != 2 {
		t.Errorf("the task of an expert that is not pipelined ran in round %d, want 2", got)
	}
	more := false
	for _, e := range evs {
		if e.Kind == EventStep && e.Step == "execute" && e.Iteration == 1 && e.Tasks == 3 {
			more = true
		}
	}
	if !more {
		t.Error("no event says that the round's planned tasks grew to 3")
	}
}
