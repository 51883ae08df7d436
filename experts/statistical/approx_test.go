package statistical

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse/duckdb"
)

// TestApproxDistinctOnSampledTable: on an engine where a distinct count over
// the whole table costs about one scan (DuckDB), a sampled table's distinct
// counts come from the whole table, not from the sample, which would
// understate them.
func TestApproxDistinctOnSampledTable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "big.duckdb")
	w, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`CREATE TABLE events AS SELECT i AS id, i % 7 AS kind FROM range(20000) t(i)`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	src, err := duckdb.Open(ctx, "duckdb://"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, src)
	env := experts.NewEnv(src, cat, "run1", 1, 1, tables, experts.Options{SampleRows: 2500}, new(atomic.Int64)) // eight samples: read whole
	tasks, err := New().Plan(ctx, env.For(Name))
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range tasks {
		if err := tk.Run(ctx); err != nil {
			t.Fatalf("%s: %v", tk.Name, err)
		}
	}
	e, err := cat.Get(ctx, catalog.KindProfile, "events.id")
	if err != nil {
		t.Fatal(err)
	}
	var p catalog.ProfileDoc
	if err := e.Decode(&p); err != nil {
		t.Fatal(err)
	}
	// Counted exactly over the whole table, though the rest is sampled.
	if !p.Sampled || p.DistinctIsEstimate || p.DistinctCount == nil {
		t.Fatalf("profile %+v", p)
	}
	// The sample holds ~2500 rows; the table 20,000 distinct ids.
	if got := float64(*p.DistinctCount); math.Abs(got-20000) > 0 {
		t.Fatalf("distinct %v, want 20000 (the whole table), not the sample's ~2500", got)
	}
	if !strings.Contains(strings.Join(e.Evidence, ";"), "20000 distinct values counted over all 20000 rows") {
		t.Fatalf("evidence %q does not say how the figure was made", e.Evidence)
	}
	k, _ := cat.Get(ctx, catalog.KindProfile, "events.kind")
	var pk catalog.ProfileDoc
	k.Decode(&pk)
	if pk.DistinctCount == nil || *pk.DistinctCount != 7 {
		t.Fatalf("kind distinct %v, want 7", pk.DistinctCount)
	}
}
