package advice_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/advice"
	"github.com/discover-db/discover/experts/query"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// build makes a parent with 20 rows and a child of 40 that references it:
// 36 non-NULL references, two of them to parents that do not exist.
func build(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "a.db")
	stmts := []string{
		"CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT)",
		"CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id), note TEXT)",
	}
	for i := 1; i <= 20; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO parent VALUES (%d, 'p%d')", i, i))
	}
	for i := 1; i <= 40; i++ {
		ref := fmt.Sprint(1 + i%20)
		switch {
		case i%10 == 0:
			ref = "NULL"
		case i == 7:
			ref = "98"
		case i == 9:
			ref = "99"
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO child VALUES (%d, %s, 'n')", i, ref))
	}
	expertstest.SQLite(t, path, stmts...)
	return path
}

type harness struct {
	src *sqlite.Source
	cat *catalog.Catalog
	q   atomic.Int64
	it  int
}

func setup(t *testing.T) *harness {
	t.Helper()
	src, err := sqlite.Open(context.Background(), build(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return &harness{src: src, cat: expertstest.Catalog(t)}
}

func (h *harness) env(t *testing.T, iteration int) *experts.Env {
	t.Helper()
	return experts.NewEnv(h.src, h.cat, "run1", iteration, 1, expertstest.Tables(t, h.src),
		experts.Options{SampleRows: 1_000_000}, &h.q)
}

// round plans and runs every expert once, as one orchestrator iteration
// would (all plan, in order, then the tasks run), and returns the task
// names each expert planned.
func (h *harness) round(t *testing.T, xs ...experts.Expert) map[string][]string {
	t.Helper()
	ctx := context.Background()
	h.it++
	env := h.env(t, h.it)
	planned := map[string][]string{}
	var tasks []experts.Task
	for _, x := range xs {
		ts, err := x.Plan(ctx, env.For(x.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, tk := range ts {
			planned[x.Name()] = append(planned[x.Name()], tk.Name)
		}
		tasks = append(tasks, ts...)
	}
	for _, tk := range tasks {
		if err := tk.Run(ctx); err != nil {
			t.Fatalf("%s: %v", tk.Name, err)
		}
	}
	return planned
}

func TestRecommendations(t *testing.T) {
	h := setup(t)
	xs := []experts.Expert{structural.New(), relations.New(), statistical.New(), query.New(), advice.New()}
	advised := 0
	for i := 0; i < 8; i++ {
		planned := h.round(t, xs...)
		if len(planned) == 0 {
			break
		}
		if slices.Contains(planned[advice.Name], "recommendations") {
			advised++
			// Its readiness: it advises in a round the query expert plans
			// no test in, on every figure those tests measured.
			if len(planned[query.Name]) > 0 {
				t.Errorf("round %d: advised beside the query expert's tests %v", h.it, planned[query.Name])
			}
		}
	}
	if advised != 1 {
		t.Fatalf("advised in %d rounds, want 1", advised)
	}
	checkRecommendations(t, h.cat)
}

// checkRecommendations: every recommendation has its SQL and description,
// some are validated, each with its plan, and the advice is marked done.
func checkRecommendations(t *testing.T, cat *catalog.Catalog) {
	t.Helper()
	ctx := context.Background()
	recs, err := cat.Kind(ctx, catalog.KindRecommendation, "")
	if err != nil {
		t.Fatal(err)
	}
	validated := 0
	for _, e := range recs {
		var r catalog.RecommendationDoc
		e.Decode(&r)
		if r.SQL == "" || r.Description == "" {
			t.Errorf("recommendation %s: %+v", e.Key, r)
		}
		if e.Expert != advice.Name {
			t.Errorf("recommendation %s saved by %q, want %q", e.Key, e.Expert, advice.Name)
		}
		for _, tag := range e.Tags {
			if tag == advice.TagValidated {
				validated++
				if !strings.Contains(strings.Join(e.Evidence, ";"), "EXPLAIN: ") {
					t.Errorf("validated %s without its plan: %q", e.Key, e.Evidence)
				}
			}
		}
	}
	if validated == 0 {
		t.Errorf("no validated recommendation among %d", len(recs))
	}
	if done, _ := cat.Get(ctx, catalog.KindProgress, "query:recommendations"); done.Key == "" {
		t.Error("recommendations not marked done")
	}
}

// The advice waits for the round's experts.ClaimsTested, but not from
// round 8 on, should a test keep failing.
func TestWaitsForClaimsTested(t *testing.T) {
	h := setup(t)
	ctx := context.Background()
	xs := []experts.Expert{structural.New(), relations.New(), statistical.New(), query.New()}
	for i := 0; i < 6 && len(h.round(t, xs...)) > 0; i++ {
	}
	x := advice.New()
	plan := func(env *experts.Env) []experts.Task {
		t.Helper()
		ts, err := x.Plan(ctx, env.For(advice.Name))
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	if ts := plan(h.env(t, 3)); len(ts) != 0 {
		t.Fatalf("planned %d tasks before the claims were tested", len(ts))
	}
	env := h.env(t, 3)
	if err := env.For(query.Name).Settle(experts.ClaimsTested); err != nil {
		t.Fatal(err)
	}
	if err := env.Settle(experts.ReferencesInferred); err == nil {
		t.Error("settled a milestone that holds for the run")
	}
	ts := plan(env)
	if len(ts) != 1 || ts[0].Name != "recommendations" || ts[0].Expert != advice.Name {
		t.Fatalf("tasks %+v once the claims are tested, want the recommendations", ts)
	}
	if ts := plan(h.env(t, 8)); len(ts) != 1 {
		t.Fatalf("planned %d tasks in round 8, want the recommendations whatever the tests", len(ts))
	}
	if err := ts[0].Run(ctx); err != nil {
		t.Fatal(err)
	}
	checkRecommendations(t, h.cat)
	if ts := plan(env); len(ts) != 0 {
		t.Errorf("advised again: %+v", ts)
	}
}
