package rules_test

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse/sqlite"

	_ "modernc.org/sqlite"
)

type harness struct {
	env *experts.Env
	cat *catalog.Catalog
}

func setup(t *testing.T, path string) *harness {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	tables, err := src.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	env := experts.NewEnv(src, cat, "run1", 1, 1, tables, experts.Options{SampleRows: 1_000_000}, new(atomic.Int64))
	return &harness{env: env, cat: cat}
}

// run plans and runs x's tasks once, concurrently as the orchestrator
// runs them; it returns the task names.
func (h *harness) run(t *testing.T, x experts.Expert) []string {
	t.Helper()
	tasks, err := x.Plan(context.Background(), h.env.For(x.Name()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var wg sync.WaitGroup
	for _, task := range tasks {
		names = append(names, task.Name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := task.Run(context.Background()); err != nil {
				t.Errorf("%s: %v", task.Name, err)
			}
		}()
	}
	wg.Wait()
	return names
}
