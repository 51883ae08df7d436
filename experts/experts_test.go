package experts

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

type countingSource struct {
	warehouse.Source
	n int
}

func (c *countingSource) Query(context.Context, string, warehouse.QueryOptions) (*warehouse.Result, error) {
	c.n++
	return &warehouse.Result{}, nil
}

func TestSaveCountsOnlyNewKnowledge(t *testing.T) {
	ctx := context.Background()
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	var q atomic.Int64
	env := NewEnv(nil, cat, "run1", 1, 1, nil, Options{}, &q).For("x")
	doc := catalog.InsightDoc{Kind: "a"}
	for i := 0; i < 3; i++ {
		if err := catalog.Insights.Save(ctx, env, "k", doc, 0.5, []string{"e"}); err != nil {
			t.Fatal(err)
		}
	}
	if env.NewFindings() != 1 {
		t.Fatalf("the same finding saved thrice counted %d times", env.NewFindings())
	}
	if err := catalog.Insights.Save(ctx, env, "k", doc, 0.6, []string{"e"}); err != nil {
		t.Fatal(err)
	}
	if env.NewFindings() != 2 {
		t.Fatal("a changed confidence is new knowledge")
	}
	// The same finding in a later run is new for that run.
	env2 := NewEnv(nil, cat, "run2", 1, 1, nil, Options{}, &q).For("x")
	if err := catalog.Insights.Save(ctx, env2, "k", doc, 0.6, []string{"e"}); err != nil {
		t.Fatal(err)
	}
	if env2.NewFindings() != 1 {
		t.Fatal("a finding of an older run counted as known")
	}
	e, err := cat.Get(ctx, catalog.KindInsight, "k")
	if err != nil || e.RunID != "run2" || e.Expert != "x" || e.Iteration != 1 {
		t.Fatalf("stamped entry %+v %v", e, err)
	}
	if ok, _ := env.Has(ctx, catalog.KindInsight, "k"); ok {
		t.Fatal("run1 sees run2's entry as its own")
	}
}

func TestQueryBudget(t *testing.T) {
	src := &countingSource{}
	var q atomic.Int64
	env := NewEnv(src, nil, "r", 1, 1, nil, Options{MaxQueries: 2}, &q)
	for i := 0; i < 2; i++ {
		if _, err := env.Query(context.Background(), "SELECT 1"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.Query(context.Background(), "SELECT 1"); !errors.Is(err, ErrQueryBudget) {
		t.Fatalf("third query: %v", err)
	}
	if src.n != 2 || env.Queries() != 2 {
		t.Fatalf("source saw %d queries, env counted %d", src.n, env.Queries())
	}
}

// erringSource answers every query with err.
type erringSource struct {
	warehouse.Source
	err error
}

func (s erringSource) Query(context.Context, string, warehouse.QueryOptions) (*warehouse.Result, error) {
	return nil, s.err
}

// An expert's statement the guard refuses is kept for the run (a bug the
// tests look for); the database's own refusal and other errors are not.
func TestOwnRefusalsAreKept(t *testing.T) {
	var q atomic.Int64
	for _, c := range []struct {
		run  string
		err  error
		kept bool
	}{
		{"own-guard", fmt.Errorf("sqlite: query: %w", warehouse.Rejectf("function load_extension is not allowed")), true},
		{"own-db", fmt.Errorf("postgres: query: %w: ERROR 25006", warehouse.ErrDatabaseRefused), false},
		{"own-other", errors.New("postgres: query: ERROR: division by zero"), false},
	} {
		env := NewEnv(erringSource{err: c.err}, nil, c.run, 1, 1, nil, Options{}, &q)
		env.Query(context.Background(), "SELECT load_extension('x')")
		got := OwnRefusals(c.run)
		if (len(got) == 1) != c.kept || c.kept && !strings.Contains(got[0], "load_extension") {
			t.Errorf("%s: kept %q", c.run, got)
		}
	}
	if got := OwnRefusals("another run"); len(got) != 0 {
		t.Errorf("another run's refusals: %q", got)
	}
}
