package model_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/model"
	"github.com/discover-db/discover/experts/registry"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/warehouse"
)

// countingProvider answers with a function field (STYLE: hand-written
// fakes) and counts the requests.
type countingProvider struct {
	calls    atomic.Int64
	complete func(req llm.Request) (llm.Response, error)
}

func (f *countingProvider) Complete(_ context.Context, req llm.Request) (llm.Response, error) {
	f.calls.Add(1)
	return f.complete(req)
}

// stubExpert plans with a function field. It stands in for the real
// experts' work, so it declares their coverage.
type stubExpert struct {
	name string
	plan func(ctx context.Context, env *experts.Env) []experts.Task
}

func (f *stubExpert) Name() string { return f.name }
func (f *stubExpert) Coverage(tables []warehouse.Table) []experts.Unit {
	return experts.CoverageOf(registry.New(), tables)
}
func (f *stubExpert) Plan(ctx context.Context, env *experts.Env) ([]experts.Task, error) {
	return f.plan(ctx, env), nil
}

// The model expert plans its steps once, in phase 2, tests what the model
// proposes through the controller, records the verdicts in the ledger as
// model-proposed, and the run's state counts the calls and tokens.
func TestModelExpert(t *testing.T) {
	ctx := context.Background()
	src, tables := model.ShopT(t)
	cat, run := model.Setup(t)

	fp := &countingProvider{complete: func(req llm.Request) (llm.Response, error) {
		switch req.Tool.Name {
		case llm.HypothesesTool.Name:
			return model.Args(t, map[string]any{"hypotheses": []any{
				map[string]any{"statement": "b is never NULL", "table": "t", "expected": "0",
					"test_sql": "SELECT COUNT(*) AS violations FROM t WHERE b IS NULL"},
				map[string]any{"statement": "a is positive", "table": "t", "expected": "0",
					"test_sql": "DELETE FROM t"},
			}}), nil
		case llm.ReviseTool.Name:
			return model.Args(t, map[string]any{"sql": "SELECT COUNT(*) AS violations FROM t WHERE a <= 0"}), nil
		case llm.NotesTool.Name:
			return model.Args(t, map[string]any{"tables": []any{map[string]any{"table": "t", "entity": "Thing", "description": "Things."}}}), nil
		case llm.NarrativeTool.Name:
			return model.Args(t, map[string]any{"summary": "One table of things."}), nil
		}
		t.Errorf("unexpected tool %q", req.Tool.Name)
		return llm.Response{}, nil
	}}
	client := llm.NewClient(fp, llm.Config{Provider: "fake", Model: "m1"}, llm.Budget{})
	// A stand-in expert with nothing to do: the loop below only has to
	// carry the model's usage into the run state.
	stub := &stubExpert{name: "stub", plan: func(ctx context.Context, env *experts.Env) []experts.Task { return nil }}
	o := &orchestrator.Orchestrator{Source: src, Catalog: cat, Experts: []experts.Expert{stub}, Model: client,
		Config: orchestrator.Config{MaxIterations: 3, TargetConfidence: 2, TargetCoverage: 2}}
	m := model.New(client, 1, nil)
	var q atomic.Int64
	env := experts.NewEnv(src, cat, run.ID, 1, 1, tables, experts.Options{}, &q)
	if ts, _ := m.Plan(ctx, env.For(m.Name())); len(ts) != 0 {
		t.Fatalf("planned %d tasks in phase 1", len(ts))
	}
	env = experts.NewEnv(src, cat, run.ID, 2, 2, tables, experts.Options{}, &q)
	ts, err := m.Plan(ctx, env.For(m.Name()))
	if err != nil || len(ts) != 2 {
		t.Fatalf("phase 2 plan: %d tasks, %v", len(ts), err)
	}
	for _, task := range ts {
		if err := task.Run(ctx); err != nil {
			t.Fatalf("%s: %v", task.Name, err)
		}
	}
	if ts, _ := m.Plan(ctx, env.For(m.Name())); len(ts) != 0 {
		t.Fatalf("steps planned again after they ran: %d", len(ts))
	}
	hs, _ := cat.List(ctx, catalog.Filter{Kind: catalog.KindHypothesis, RunID: run.ID})
	got := map[string]string{}
	for _, e := range hs {
		var d catalog.HypothesisDoc
		e.Decode(&d)
		got[d.Statement] = d.Status
		if e.Expert != model.Name || !slices.Contains(e.Tags, model.Tag) {
			t.Errorf("%q recorded by %q with tags %v", d.Statement, e.Expert, e.Tags)
		}
	}
	if got["b is never NULL"] != "refuted" || got["a is positive"] != "confirmed" || len(got) != 2 {
		t.Fatalf("ledger: %v", got)
	}
	rs, _ := cat.List(ctx, catalog.Filter{Kind: model.KindRefusal, RunID: run.ID})
	if len(rs) != 1 || !strings.Contains(string(rs[0].Document), `"stage":"guard"`) {
		t.Fatalf("refusals: %v", rs)
	}
	calls, _ := cat.List(ctx, catalog.Filter{Kind: model.KindLLMCall, RunID: run.ID})
	if int64(len(calls)) != fp.calls.Load() || len(calls) != 3 {
		t.Fatalf("%d call records for %d calls", len(calls), fp.calls.Load())
	}

	// The loop saves the model's usage in the run state (report.json run.llm).
	// The run ends by consensus before the narrative's round came: it is
	// written as the run finishes, one call more.
	finished, err := o.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	var st catalog.LoopState
	json.Unmarshal(finished.State, &st)
	if st.LLM.Provider != "fake" || st.LLM.Model != "m1" || st.LLM.Calls != 4 || st.LLM.Tokens != 200 {
		t.Fatalf("state.llm = %+v", st.LLM)
	}
	if _, err := cat.Get(ctx, catalog.KindNarrative, "llm:narrative"); err != nil {
		t.Fatalf("no narrative after a run that ended by consensus: %v", err)
	}
}
