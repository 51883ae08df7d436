package statistical_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/heavy"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// TestStreamMatchesSQL profiles real databases twice, by the streaming
// pass and by the SQL aggregates, and requires the same figures from both:
// every profile field but the evidence, and the same insights. The SQL
// path is what every other engine runs, so this holds the two to one
// meaning.
func TestStreamMatchesSQL(t *testing.T) {
	dbs := []string{
		filepath.Join("chinook", "Chinook_Sqlite.sqlite"),
		filepath.Join("northwind", "northwind.db"),
		filepath.Join("sakila", "sakila.db"),
	}
	if heavy.Reduced() {
		dbs = dbs[:1]
	}
	for _, rel := range dbs {
		t.Run(filepath.Dir(rel), func(t *testing.T) {
			path := findDataset(t, rel)
			stream := profilesOf(t, path, nil)
			sql := profilesOf(t, path, func(s warehouse.Source) warehouse.Source { return noStream{s} })
			keys := make([]string, 0, len(sql))
			for k := range sql {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if len(stream) != len(sql) {
				t.Errorf("%d entries streamed, %d by SQL", len(stream), len(sql))
			}
			views := map[string]bool{}
			src, err := sqlite.Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			tables, _ := src.Tables(context.Background())
			src.Close()
			for _, tb := range tables {
				views[tb.Name.String()] = tb.Kind == "view"
			}
			for _, k := range keys {
				a, b := stream[k], sql[k]
				if m, ok := a.(map[string]any); ok && views[fmt.Sprint(m["table"])] {
					// The SQL path skips a view's detail and sample queries
					// (quantiles, histograms, value patterns) for their
					// cost; the pass has them for free.
					for _, f := range []string{"quantiles", "histogram", "value_patterns"} {
						if _, ok := b.(map[string]any)[f]; !ok {
							delete(m, f)
						}
					}
				}
				if !sameJSON(a, b) {
					as, _ := json.Marshal(a)
					bs, _ := json.Marshal(b)
					t.Errorf("%s differs:\nstream %s\nsql    %s", k, as, bs)
				}
			}
		})
	}
}

// profilesOf runs the expert over the SQLite file at path and returns
// its documents (documents).
func profilesOf(t *testing.T, path string, wrap func(warehouse.Source) warehouse.Source) map[string]any {
	t.Helper()
	return documents(t, setup(t, path, experts.Options{SampleRows: 1_000_000}, wrap))
}

// documents runs the expert on h and returns its profiles, insights and
// uncertainties by kind and key, documents only.
func documents(t *testing.T, h *harness) map[string]any {
	t.Helper()
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	out := map[string]any{}
	for _, kind := range []string{catalog.KindProfile, catalog.KindInsight, catalog.KindUncertainty} {
		entries, err := h.env.RunEntries(context.Background(), kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			var doc any
			if err := json.Unmarshal(e.Document, &doc); err != nil {
				t.Fatal(err)
			}
			out[kind+" "+e.Key] = doc
		}
	}
	return out
}

// sameJSON compares decoded documents, numbers within a relative 1e-9:
// the engine and the pass add up floating-point values in different orders.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
	}
	return a == b
}
