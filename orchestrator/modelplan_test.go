package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/llm"
)

// toolModel is a provider answering by tool name (STYLE: a hand-written
// fake with a function field); it keeps every request.
type toolModel struct {
	mu     sync.Mutex
	reqs   []llm.Request
	answer func(tool string, req llm.Request) (any, error)
}

func (f *toolModel) Complete(_ context.Context, req llm.Request) (llm.Response, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	v, err := f.answer(req.Tool.Name, req)
	if err != nil {
		return llm.Response{}, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return llm.Response{}, err
	}
	return llm.Response{Arguments: string(b), TotalTokens: 40}, nil
}

func (f *toolModel) requests(tool string) []llm.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []llm.Request
	for _, r := range f.reqs {
		if r.Tool.Name == tool {
			out = append(out, r)
		}
	}
	return out
}

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("t%d", i+1)
	}
	return out
}

func rank(ids ...string) []llm.TaskRank {
	var out []llm.TaskRank
	for _, id := range ids {
		out = append(out, llm.TaskRank{ID: id, Reason: "because " + id})
	}
	return out
}

// The fusion: the model moves a task up, but the experts' order weighs
// more; unknown ids are ignored; every task comes back exactly once; ties
// and an empty ranking keep the experts' order.
func TestFuse(t *testing.T) {
	cases := []struct {
		name    string
		n       int
		ranking []llm.TaskRank
		want    []int
		ignored []string
	}{
		{"no ranking keeps the experts' order", 6, nil, []int{0, 1, 2, 3, 4, 5}, nil},
		// t6, last for the experts, first for the model: up two places, not to the top.
		{"the model's pick moves up", 6, rank("t6"), []int{0, 1, 2, 5, 3, 4}, nil},
		// The model disagrees on every pair: the experts' weight decides.
		{"a full reversal does not turn the round", 6, rank("t6", "t5", "t4", "t3", "t2", "t1"), []int{0, 1, 2, 3, 4, 5}, nil},
		// Moving the second task first takes more than the model's vote.
		{"the experts' first stays first", 5, rank("t2", "t1"), []int{0, 1, 2, 3, 4}, nil},
		{"in a long round the model lifts a tail task further", 12, rank("t12"), []int{0, 1, 2, 3, 4, 5, 11, 6, 7, 8, 9, 10}, nil},
		{"unknown and repeated ids are ignored", 5, rank("t99", "t5", "t5", "drop t1"), []int{0, 1, 2, 4, 3}, []string{"t99", "drop t1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			order, modelRank, reasons, ignored := fuse(ids(c.n), c.ranking)
			if !slices.Equal(order, c.want) {
				t.Errorf("order %v, want %v", order, c.want)
			}
			sorted := slices.Sorted(slices.Values(order))
			for i, v := range sorted {
				if v != i {
					t.Fatalf("order %v is not a permutation of the %d tasks", order, c.n)
				}
			}
			if !slices.Equal(ignored, c.ignored) {
				t.Errorf("ignored %q, want %q", ignored, c.ignored)
			}
			// Ranks count known ids only, first mention wins.
			if len(c.ranking) > 0 && c.name == "unknown and repeated ids are ignored" {
				if modelRank[4] != 1 || reasons[4] != "because t5" || modelRank[0] != 0 {
					t.Errorf("model ranks %v reasons %q", modelRank, reasons)
				}
			}
		})
	}
	// A task the model was not shown ("" id) keeps a place, and cannot be
	// named by the answer.
	order, _, _, ignored := fuse([]string{"t1", "t2", ""}, rank(""))
	if !slices.Equal(order, []int{0, 1, 2}) || len(ignored) != 1 {
		t.Errorf("unshown task: order %v ignored %q", order, ignored)
	}
}

// planRig is a run with an inventory of three tables and an env in phase 2.
func planRig(t *testing.T, answer func(tool string, req llm.Request) (any, error), b llm.Budget) (*Orchestrator, *toolModel, catalog.Run) {
	t.Helper()
	cat, run := setup(t)
	fm := &toolModel{answer: answer}
	client := llm.NewClient(fm, llm.Config{Provider: "fake", Model: "p1"}, b)
	src := &fakeSource{tables: oneTable()}
	return &Orchestrator{Source: src, Catalog: cat, Model: client}, fm, run
}

func planEnv(o *Orchestrator, run catalog.Run, it int) *experts.Env {
	tables, _ := o.Source.Tables(context.Background())
	var q atomic.Int64
	return experts.NewEnv(o.Source, o.Catalog, run.ID, it, 2, tables, experts.Options{}, &q).For(model.Name)
}

func namedTasks(n int) []experts.Task {
	var ts []experts.Task
	for i := 1; i <= n; i++ {
		ts = append(ts, experts.Task{Expert: []string{"structural", "statistical"}[i%2], Name: fmt.Sprintf("task %d", i)})
	}
	return ts
}

func names(ts []experts.Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// The hook asks once per iteration, only when more tasks than run at once
// wait, shows the model the tasks' names and the run's state, reorders
// without dropping, and records the ranking with the model's reasons.
func TestRankTasksAsksAndRecords(t *testing.T) {
	ctx := context.Background()
	o, fm, run := planRig(t, func(tool string, req llm.Request) (any, error) {
		if tool != llm.PlanTool.Name {
			return nil, fmt.Errorf("unexpected tool %s", tool)
		}
		return map[string]any{"ranking": []any{map[string]any{"id": "t6", "reason": "the largest table"},
			map[string]any{"id": "t42", "reason": "made up"}}}, nil
	}, llm.Budget{})
	m := Metrics{Phase: 2, Coverage: 0.456, Confidence: 0.3}

	// No model: nothing happens.
	bare := &Orchestrator{Source: o.Source, Catalog: o.Catalog}
	if got := bare.rankTasks(ctx, planEnv(o, run, 1), m, namedTasks(6), 2); !slices.Equal(names(got), names(namedTasks(6))) {
		t.Fatalf("without a model: %v", names(got))
	}
	// Ordering does not matter when all tasks run at once.
	if got := o.rankTasks(ctx, planEnv(o, run, 1), m, namedTasks(4), 4); !slices.Equal(names(got), names(namedTasks(4))) || len(fm.reqs) != 0 {
		t.Fatalf("asked with tasks <= parallel: %d requests", len(fm.reqs))
	}

	env := planEnv(o, run, 1)
	got := o.rankTasks(ctx, env, m, namedTasks(6), 2)
	want := []string{"task 1", "task 2", "task 3", "task 6", "task 4", "task 5"}
	if !slices.Equal(names(got), want) {
		t.Fatalf("order %v, want %v", names(got), want)
	}
	reqs := fm.requests(llm.PlanTool.Name)
	if len(reqs) != 1 {
		t.Fatalf("%d plan requests, want 1", len(reqs))
	}
	text := reqs[0].Messages[1].Text
	for _, s := range []string{`"id":"t6","expert":"structural","task":"task 6"`, `"coverage":0.46`, `"phase":2`, `"name":"t"`} {
		if !strings.Contains(text, s) {
			t.Errorf("plan prompt lacks %s:\n%s", s, text)
		}
	}
	// Once per iteration: the same round does not ask again.
	if again := o.rankTasks(ctx, env, m, namedTasks(6), 2); len(fm.reqs) != 1 || len(again) != 6 {
		t.Fatalf("asked twice in iteration 1: %d requests", len(fm.reqs))
	}
	e, err := o.Catalog.Get(ctx, KindLLMPlan, "llm:plan:1")
	if err != nil {
		t.Fatal(err)
	}
	var doc PlanDoc
	if err := e.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Status != "ranked" || doc.Prompt != "plan/v1" || doc.Calls != 1 || doc.Tokens != 40 || !slices.Equal(doc.Ignored, []string{"t42"}) ||
		len(doc.Order) != 6 || doc.Order[3] != (PlannedTask{Expert: "structural", Task: "task 6", Deterministic: 6, Model: 1, Reason: "the largest table"}) ||
		e.Expert != model.Name || !slices.Contains(e.Tags, model.Tag) {
		t.Fatalf("plan record %+v (entry %+v)", doc, e)
	}
	// The audit trail is not a finding: the round's count stays 0.
	if n := env.NewFindings(); n != 0 {
		t.Errorf("recording the plan counted %d new findings", n)
	}
	calls, _ := o.Catalog.List(ctx, catalog.Filter{Kind: model.KindLLMCall, RunID: run.ID})
	if len(calls) != 1 || !strings.Contains(string(calls[0].Document), `"prompt":"plan/v1"`) {
		t.Errorf("call records %v", calls)
	}
}

// A failed ask runs the experts' order and says so once per run; the
// planning share of the budget (a quarter of the calls) caps the asks.
func TestRankTasksFallbackAndBudget(t *testing.T) {
	ctx := context.Background()
	o, fm, run := planRig(t, func(tool string, req llm.Request) (any, error) {
		return nil, errors.New("connection refused")
	}, llm.Budget{MaxCalls: 40, Retries: -1, MaxFailures: 10})
	m := Metrics{Phase: 2}
	for it := 1; it <= 3; it++ {
		got := o.rankTasks(ctx, planEnv(o, run, it), m, namedTasks(5), 1)
		if !slices.Equal(names(got), names(namedTasks(5))) {
			t.Fatalf("iteration %d after a failure: %v", it, names(got))
		}
	}
	if n := len(fm.reqs); n != 3 {
		t.Errorf("%d requests, want one per iteration", n)
	}
	us, _ := o.Catalog.List(ctx, catalog.Filter{Kind: catalog.KindUncertainty, RunID: run.ID})
	if len(us) != 1 || !strings.Contains(string(us[0].Document), "Model-assisted task planning (fake p1) failed") ||
		!strings.Contains(string(us[0].Document), "connection refused") {
		t.Fatalf("uncertainties %v, want one saying planning failed", us)
	}
	plans, _ := o.Catalog.List(ctx, catalog.Filter{Kind: KindLLMPlan, RunID: run.ID})
	for _, p := range plans {
		var d PlanDoc
		p.Decode(&d)
		if d.Status != "failed" || len(d.Order) != 5 || d.Order[0].Deterministic != 1 {
			t.Errorf("failed plan record %+v", d)
		}
	}

	// A budget of 8 calls leaves planning 2: one ask, then the experts'
	// order without asking.
	o2, fm2, run2 := planRig(t, func(tool string, req llm.Request) (any, error) {
		return map[string]any{"ranking": []any{map[string]any{"id": "t3", "reason": "r"}}}, nil
	}, llm.Budget{MaxCalls: 8})
	for it := 1; it <= 3; it++ {
		o2.rankTasks(ctx, planEnv(o2, run2, it), m, namedTasks(5), 1)
	}
	if n := len(fm2.reqs); n != 1 {
		t.Errorf("%d plan requests with a budget of 8 calls, want 1", n)
	}
	// A budget of 4 leaves none.
	o3, fm3, run3 := planRig(t, func(string, llm.Request) (any, error) { return nil, errors.New("not asked") }, llm.Budget{MaxCalls: 4})
	o3.rankTasks(ctx, planEnv(o3, run3, 1), m, namedTasks(5), 1)
	if len(fm3.reqs) != 0 {
		t.Errorf("asked with no planning budget")
	}
}

// In the loop, the round runs in the fused order: with one task at a time
// the start order is the fused order.
func TestRunRunsFusedOrder(t *testing.T) {
	var mu sync.Mutex
	var started []string
	x := &fakeExpert{name: "x", plan: func(ctx context.Context, env *experts.Env) []experts.Task {
		if env.Iteration > 1 {
			return nil
		}
		var ts []experts.Task
		for i := 1; i <= 5; i++ {
			name := fmt.Sprintf("x%d", i)
			ts = append(ts, experts.Task{Expert: "x", Name: name, Run: func(context.Context) error {
				mu.Lock()
				started = append(started, name)
				mu.Unlock()
				return nil
			}})
		}
		return ts
	}}
	o, fm, run := planRig(t, func(tool string, req llm.Request) (any, error) {
		switch tool {
		case llm.PlanTool.Name:
			return map[string]any{"ranking": []any{map[string]any{"id": "t5", "reason": "r"}}}, nil
		case llm.NarrativeTool.Name:
			return map[string]any{"summary": "Nothing much."}, nil
		}
		return nil, fmt.Errorf("unexpected tool %s", tool)
	}, llm.Budget{})
	o.Experts = []experts.Expert{x}
	o.Config = Config{MaxIterations: 3, TargetConfidence: 2, TargetCoverage: 2, Parallel: 1}
	if _, err := o.Run(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	if want := []string{"x1", "x2", "x3", "x5", "x4"}; !slices.Equal(started, want) {
		t.Fatalf("started %v, want %v", started, want)
	}
	if n := len(fm.requests(llm.PlanTool.Name)); n != 1 {
		t.Errorf("%d plan requests, want 1", n)
	}
}
