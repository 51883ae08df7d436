package model

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// fakeProvider answers with a function field (STYLE: hand-written fakes).
// completeCtx, when set, is used instead of complete and sees the
// request's context (its sampling temperature).
type fakeProvider struct {
	calls       atomic.Int64
	complete    func(req llm.Request) (llm.Response, error)
	completeCtx func(ctx context.Context, req llm.Request) (llm.Response, error)
}

func (f *fakeProvider) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	f.calls.Add(1)
	if f.completeCtx != nil {
		return f.completeCtx(ctx, req)
	}
	return f.complete(req)
}

func args(t *testing.T, v any) llm.Response {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return llm.Response{Arguments: string(b), TotalTokens: 50}
}

// The narrative's prompt carries catalog findings picked by relevance
// (catalog search on the domain and the largest tables) within its token
// budget: the budget holds, items are whole, the findings about the
// central table come first, the model's own notes stay out, and the
// facts count what the catalog holds.
func TestNarrativeContext(t *testing.T) {
	ctx := context.Background()
	src, tables := sqliteSource(t, `CREATE TABLE shipments (id INTEGER PRIMARY KEY)`, `CREATE TABLE misc (id INTEGER PRIMARY KEY)`)
	cat, run := setup(t)
	var q atomic.Int64
	env := experts.NewEnv(src, cat, run.ID, 3, 4, tables, experts.Options{}, &q)
	save := func(kind, key string, doc any, conf float64, expert string) {
		t.Helper()
		en, err := catalog.NewEntry(kind, key, doc)
		if err != nil {
			t.Fatal(err)
		}
		en.Confidence = conf
		if err := env.For(expert).Save(ctx, en); err != nil {
			t.Fatal(err)
		}
	}
	save(catalog.KindTableStats, "shipments", catalog.TableStatsDoc{Table: "shipments", Rows: 5000}, 1, "statistical")
	save(catalog.KindTableStats, "misc", catalog.TableStatsDoc{Table: "misc", Rows: 10}, 1, "statistical")
	save(catalog.KindDomain, "domain", catalog.DomainDoc{Label: "logistics"}, 0.8, "semantic")
	pad := strings.Repeat(" and more", 10)
	for i := 0; i < 20; i++ {
		// Findings no search term finds are more confident: only
		// relevance puts the shipments ones first.
		save(catalog.KindInsight, fmt.Sprintf("other:%02d", i), catalog.InsightDoc{Kind: "distribution", Tables: []string{},
			Description: fmt.Sprintf("unrelated finding %02d%s", i, pad)}, 0.95, "statistical")
		save(catalog.KindInsight, fmt.Sprintf("ship:%02d", i), catalog.InsightDoc{Kind: "temporal", Tables: []string{"shipments"},
			Description: fmt.Sprintf("shipments finding %02d%s", i, pad)}, 0.6, "statistical")
	}
	save(catalog.KindInsight, "llm:note:shipments", catalog.InsightDoc{Kind: "model_note", Tables: []string{"shipments"},
		Description: "The model's reading of shipments"}, 0.3, Name)

	all, err := narrativeData(ctx, env, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Findings) != 40 || all.Omitted != 0 {
		t.Fatalf("unbounded: %d findings, %d omitted; want the 40 experts' insights", len(all.Findings), all.Omitted)
	}
	f := all.Facts
	if f.Tables != 2 || f.Rows != 5010 || f.Domain != "logistics" || f.Insights != 40 || f.Dialect != "sqlite" {
		t.Fatalf("facts %+v", f)
	}
	one, _, used, err := llm.Compact(all.Findings[:1], 1<<20)
	if err != nil || len(one) != 1 {
		t.Fatal(err)
	}
	budget := 12*used + used/2
	got, err := narrativeData(ctx, env, budget)
	if err != nil {
		t.Fatal(err)
	}
	_, _, total, _ := llm.Compact(got.Findings, 1<<20)
	if total > budget || len(got.Findings) != 12 || got.Omitted != 28 {
		t.Fatalf("budget %d: %d findings (%d tokens), %d omitted", budget, len(got.Findings), total, got.Omitted)
	}
	for i, fd := range got.Findings {
		if !strings.HasPrefix(fd.Text, "shipments finding") || !strings.HasSuffix(fd.Text, pad) {
			t.Errorf("finding %d is %q: want whole findings about the central table first", i, fd.Text)
		}
	}
}

// shopT is a one-table SQLite source: t(a, b) with b NULL in one of 3 rows.
func shopT(t *testing.T) (*sqlite.Source, []warehouse.Table) {
	t.Helper()
	return sqliteSource(t, `CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)`, `INSERT INTO t VALUES (1,'x'),(2,'y'),(3,NULL)`)
}

// sqliteSource builds a SQLite file with stmts, through a writable
// connection closed before discover's read-only source opens it; the source
// is closed when the test ends. It returns the source and its tables.
func sqliteSource(t *testing.T, stmts ...string) (*sqlite.Source, []warehouse.Table) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	tables, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return src, tables
}

// The hypothesis' own query counts empty strings (0 violations); the
// formulations asked for independently count NULLs (1 violation each).
const (
	ownSQL      = `SELECT COUNT(*) AS violations FROM t WHERE b = ''`
	formulation = `SELECT COUNT(*) AS violations FROM t WHERE b IS NULL`
)

// multiPathModel answers the hypotheses call with one hypothesis and each
// formulation call with a query that disagrees with the hypothesis' own;
// it records the formulation requests and their sampling temperature, and
// how many formulation calls were in flight at most.
type multiPathModel struct {
	mu                sync.Mutex
	formulateReqs     []llm.Request
	temps             map[string][]float64 // by tool
	inFlight, maxSeen int
	delay             time.Duration
	hypotheses        int
}

func (m *multiPathModel) provider(t *testing.T) *fakeProvider {
	return &fakeProvider{completeCtx: func(ctx context.Context, req llm.Request) (llm.Response, error) {
		m.mu.Lock()
		if m.temps == nil {
			m.temps = map[string][]float64{}
		}
		m.temps[req.Tool.Name] = append(m.temps[req.Tool.Name], req.Temperature)
		m.mu.Unlock()
		switch req.Tool.Name {
		case llm.HypothesesTool.Name:
			var hs []any
			for i := 0; i < max(m.hypotheses, 1); i++ {
				hs = append(hs, map[string]any{"statement": fmt.Sprintf("b is never NULL (%d)", i), "table": "t", "expected": "0", "test_sql": ownSQL})
			}
			return args(t, map[string]any{"hypotheses": hs}), nil
		case llm.FormulateTool.Name:
			m.mu.Lock()
			m.formulateReqs = append(m.formulateReqs, req)
			m.inFlight++
			m.maxSeen = max(m.maxSeen, m.inFlight)
			m.mu.Unlock()
			time.Sleep(m.delay)
			m.mu.Lock()
			m.inFlight--
			m.mu.Unlock()
			return args(t, map[string]any{"sql": formulation}), nil
		}
		t.Errorf("unexpected tool %q", req.Tool.Name)
		return llm.Response{}, errors.New("unexpected tool")
	}}
}

// runMultiPath runs a model expert's hypotheses step in phase 2 over
// shopT, asking for paths formulations of each hypothesis from model
// within budget. It returns the catalog and run the step wrote to and the
// client that counted the calls.
func runMultiPath(t *testing.T, model *multiPathModel, paths int, budget llm.Budget) (*catalog.Catalog, catalog.Run, *llm.Client) {
	t.Helper()
	src, tables := shopT(t)
	cat, run := setup(t)
	client := llm.NewClient(model.provider(t), llm.Config{Provider: "fake", Model: "m1"}, budget)
	m := &Expert{client: client, paths: paths}
	var q atomic.Int64
	env := experts.NewEnv(src, cat, run.ID, 2, 2, tables, experts.Options{}, &q).For(Name)
	if err := m.runStep(context.Background(), env, "llm:hypotheses", "hypothesis generation", m.hypotheses); err != nil {
		t.Fatal(err)
	}
	return cat, run, client
}

func hypothesisEvidence(t *testing.T, cat *catalog.Catalog, runID string) map[string]catalog.Entry {
	t.Helper()
	es, err := cat.List(context.Background(), catalog.Filter{Kind: catalog.KindHypothesis, RunID: runID})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]catalog.Entry{}
	for _, e := range es {
		var d catalog.HypothesisDoc
		if err := e.Decode(&d); err != nil {
			t.Fatal(err)
		}
		out[d.Statement] = e
	}
	return out
}

// --llm-paths 3: after the hypotheses call, two more calls of their own
// ask for one formulation each, shown only the statement and its tables
// (never the hypothesis' query) and sampled at a temperature above 0; the
// three candidates are voted on and the majority's query is the one
// judged, its prompt named in the evidence.
func TestModelMultiPath(t *testing.T) {
	ctx := context.Background()
	model := &multiPathModel{}
	cat, run, _ := runMultiPath(t, model, 3, llm.Budget{})
	if len(model.formulateReqs) != 2 {
		t.Fatalf("%d formulation calls, want 2 (paths 3 = the hypothesis' own query and 2 more)", len(model.formulateReqs))
	}
	for _, r := range model.formulateReqs {
		var text strings.Builder
		for _, msg := range r.Messages {
			text.WriteString(msg.Text)
		}
		if strings.Contains(text.String(), "b = ''") || !strings.Contains(text.String(), `"statement":"b is never NULL (0)"`) ||
			!strings.Contains(text.String(), `"name":"t"`) {
			t.Errorf("a formulation request must carry the statement and its table, never another formulation:\n%s", text.String())
		}
	}
	if !slices.Equal(model.temps[llm.HypothesesTool.Name], []float64{0}) ||
		!slices.Equal(model.temps[llm.FormulateTool.Name], []float64{llm.SampleTemperature, llm.SampleTemperature}) {
		t.Errorf("temperatures %v: want the hypotheses at 0 and each formulation sampled at %v", model.temps, llm.SampleTemperature)
	}
	hs := hypothesisEvidence(t, cat, run.ID)
	e, ok := hs["b is never NULL (0)"]
	if !ok || len(hs) != 1 {
		t.Fatalf("ledger: %v", hs)
	}
	var d catalog.HypothesisDoc
	e.Decode(&d)
	if d.Status != "refuted" || d.TestSQL != formulation {
		t.Errorf("status %s with %q: want refuted by the majority's query", d.Status, d.TestSQL)
	}
	want := []string{
		"violations = 1",
		"proposed by model fake m1 (prompt hypotheses/v2); the chosen test query, written by prompt formulate/v1, passed the guard, grounding and result checks",
		"multi-path vote: 3 of 3 formulations accepted; the chosen one agrees with 1 other(s)",
	}
	if !slices.Equal(e.Evidence, want) {
		t.Errorf("evidence %q\nwant     %q", e.Evidence, want)
	}
	calls, _ := cat.List(ctx, catalog.Filter{Kind: KindLLMCall, RunID: run.ID})
	prompts := map[string]int{}
	for _, c := range calls {
		var doc llm.Call
		if err := c.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		prompts[doc.Prompt]++
		if doc.Outcome != "ok" || doc.Tokens != 50 {
			t.Errorf("call record %+v", doc)
		}
	}
	if len(calls) != 3 || prompts["hypotheses/v2"] != 1 || prompts["formulate/v1"] != 2 {
		t.Errorf("call records by prompt %v, want 1 hypotheses/v2 and 2 formulate/v1", prompts)
	}
}

// When the call budget runs out, each hypothesis is voted on with the
// formulations it has, and the evidence says how many did not come.
func TestModelMultiPathBudget(t *testing.T) {
	ctx := context.Background()
	model := &multiPathModel{}
	cat, run, _ := runMultiPath(t, model, 3, llm.Budget{MaxCalls: 2})
	if n := len(model.formulateReqs); n != 1 {
		t.Fatalf("%d formulation calls within a 2-call budget, want 1", n)
	}
	e := hypothesisEvidence(t, cat, run.ID)["b is never NULL (0)"]
	var d catalog.HypothesisDoc
	e.Decode(&d)
	// Two candidates that disagree: neither has a majority, the first (the
	// hypothesis' own query) wins.
	if d.Status != "confirmed" || d.TestSQL != ownSQL || len(e.Evidence) != 3 {
		t.Fatalf("status %s with %q, evidence %q", d.Status, d.TestSQL, e.Evidence)
	}
	if want := "multi-path vote: 2 of 2 formulations accepted; the chosen one agrees with 0 other(s); " +
		"1 of the 3 independent formulations asked for did not come (llm: formulate/v1: model budget spent: 2 calls)"; e.Evidence[2] != want {
		t.Errorf("vote evidence %q\nwant          %q", e.Evidence[2], want)
	}
	// The step itself did not fail: no uncertainty says so.
	if has, _ := cat.List(ctx, catalog.Filter{Kind: catalog.KindUncertainty, RunID: run.ID}); len(has) != 0 {
		t.Errorf("uncertainties %v", has)
	}
}

// The formulation calls of all hypotheses run at most 4 at a time.
func TestModelMultiPathBounded(t *testing.T) {
	model := &multiPathModel{delay: 30 * time.Millisecond, hypotheses: 3}
	cat, run, client := runMultiPath(t, model, 5, llm.Budget{})
	if n := len(model.formulateReqs); n != 12 {
		t.Fatalf("%d formulation calls, want 3 hypotheses x 4", n)
	}
	if model.maxSeen > 4 || model.maxSeen < 2 {
		t.Errorf("at most %d formulation calls in flight, want 2 to 4", model.maxSeen)
	}
	if calls, _ := client.Usage(); calls != 13 {
		t.Errorf("%d calls counted, want 13", calls)
	}
	for s, e := range hypothesisEvidence(t, cat, run.ID) {
		if !slices.Contains(e.Evidence, "multi-path vote: 5 of 5 formulations accepted; the chosen one agrees with 3 other(s)") {
			t.Errorf("%s: evidence %q", s, e.Evidence)
		}
	}
}
