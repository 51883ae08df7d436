package statistical_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/warehouse/duckdb"
)

// TestDuckDBChecks profiles a DuckDB table whose figures are known by
// construction, through the fast forms DuckDB gets for the checks (blank
// strings without TRIM, placeholders by one regular expression, the four
// quantiles from one aggregate):
//
//   - note: NULL in 40 of 400 rows, ” in 40, three spaces in 40; 'N/A',
//     'NULL' and 'unknown' padded with U+00A0 and U+3000 (spaces to
//     DuckDB's TRIM) in 8 rows each; 'note 0' … 'note 6' elsewhere;
//   - amount: 1 … 400, whose quantiles quantile_cont interpolates exactly.
func TestDuckDBChecks(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "checks.duckdb")
	w, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Exec(`CREATE TABLE marks AS SELECT i AS id,
		CASE WHEN i % 10 = 0 THEN NULL WHEN i % 10 = 1 THEN '' WHEN i % 10 = 2 THEN '   '
			WHEN i % 50 = 3 THEN 'N/A' WHEN i % 50 = 5 THEN 'NULL'
			WHEN i % 50 = 7 THEN chr(160) || 'unknown' || chr(12288)
			ELSE 'note ' || (i % 7) END AS note,
		CAST(i + 1 AS DOUBLE) AS amount
		FROM range(400) r(i)`)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	src, err := duckdb.Open(ctx, "duckdb://"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	cat := expertstest.Catalog(t)
	tables := expertstest.Tables(t, src)
	env := experts.NewEnv(src, cat, "run1", 1, 1, tables, experts.Options{SampleRows: 1000}, new(atomic.Int64))
	x := statistical.New()
	for round := 0; ; round++ {
		tasks, err := x.Plan(ctx, env.For(x.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) == 0 {
			break
		}
		if round == 5 {
			t.Fatal("the statistical expert is never satisfied")
		}
		for _, tk := range tasks {
			if err := tk.Run(ctx); err != nil {
				t.Fatalf("%s: %v", tk.Name, err)
			}
		}
	}
	get := func(col string) catalog.ProfileDoc {
		t.Helper()
		e, err := cat.Get(ctx, catalog.KindProfile, "marks."+col)
		if err != nil {
			t.Fatal(err)
		}
		var p catalog.ProfileDoc
		if err := e.Decode(&p); err != nil {
			t.Fatal(err)
		}
		return p
	}

	note := get("note")
	got := map[string]string{}
	for _, a := range note.Anomalies {
		ex := slices.Clone(a.Examples)
		slices.Sort(ex)
		got[a.Kind] = fmt.Sprintf("%d %q", a.Count, ex)
	}
	want := map[string]string{
		"empty_string": `80 ["" "   "]`,
		"placeholder":  `24 ["N/A" "NULL" "\u00a0unknown\u3000"]`,
	}
	for kind, w := range want {
		if got[kind] != w {
			t.Errorf("note %s: got %s, want %s", kind, got[kind], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("note anomalies %v, want only %v", got, want)
	}

	q := get("amount").Quantiles
	if q == nil || q.Estimate || q.P25 != 100.75 || q.P50 != 200.5 || q.P75 != 300.25 || !nearly(q.P95, 380.05) {
		t.Errorf("amount quantiles %+v, want exact 100.75, 200.5, 300.25, 380.05", q)
	}
	// The histogram's bounds: the least value, quantile_cont's deciles
	// 1 + p·399, the greatest; the anomaly query counts the 400 values
	// into buckets of 40.
	h := get("amount").Histogram
	if h == nil || len(h.Bounds) != 11 || len(h.Counts) != 10 || h.Estimate {
		t.Fatalf("amount histogram %+v", h)
	}
	for i, n := range h.Counts {
		if n != 40 {
			t.Errorf("bucket %d holds %d values, want 40", i, n)
		}
	}
	for i, b := range h.Bounds {
		if want := 1 + float64(i)/10*399; !nearly(b, want) {
			t.Errorf("bound %d = %v, want %v", i, b, want)
		}
	}
}

func nearly(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
