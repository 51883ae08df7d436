package statistical_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/postgres"
)

// TestPostgres runs the checks on PostgreSQL, whose percentile aggregate,
// typed columns and UNION typing differ from SQLite's. It needs the server
// .ci/start-servers starts.
func TestPostgres(t *testing.T) {
	i := 0 // the rows inserted
	src, _, table := postgresTable(t, "stat_sales", func(table string) []string {
		stmts := []string{fmt.Sprintf(`CREATE TABLE %s (id INTEGER PRIMARY KEY, amount NUMERIC(12,2), qty INTEGER,
		email VARCHAR(100), note TEXT, sold_at TIMESTAMP, width DOUBLE PRECISION, height DOUBLE PRECISION, score DOUBLE PRECISION)`, table)}
		for y := 2022; y <= 2023; y++ {
			for m := 1; m <= 12; m++ {
				n := 10
				if m == 12 {
					n = 50
				}
				for d := range n {
					amount := 20 + i*37%200
					if i == 10 || i == 20 || i == 30 {
						amount *= 100
					}
					qty := 1 + i%9
					if i == 5 {
						qty = -1
					}
					email := fmt.Sprintf("user%d@example.com", i)
					if i == 100 {
						email = "user99@example.com"
					}
					note := fmt.Sprintf("'note %d'", i%7)
					switch {
					case i%10 == 0:
						note = "NULL"
					case i%10 == 1:
						note = "''"
					case i%50 == 2:
						note = "'N/A'"
					}
					sold := fmt.Sprintf("%d-%02d-%02d %02d:00:00", y, m, 1+d%28, d%24)
					if y == 2023 && m == 12 && d == n-1 {
						sold = "2023-12-31 12:00:00"
					}
					w := float64(i%50) + 1.5
					stmts = append(stmts, fmt.Sprintf(`INSERT INTO %s VALUES (%d, %d, %d, '%s', %s, '%s', %g, %g, %g)`,
						table, i, amount, qty, email, note, sold, w, 2*w+float64(i%3)*0.1, float64(i*7919%1000)/10))
					i++
				}
			}
		}
		return stmts
	})
	pg := src.(*postgres.Source)
	// Both of the expert's paths must give the engine's figures: the
	// streamed one reads the rows over the connection and counts them
	// with PostgreSQL's semantics (its texts of numbers, its
	// percentile_cont, its reading of timestamps); the other sends the
	// aggregates.
	t.Run("stream", func(t *testing.T) { postgresChecks(t, pg, table, i, true) })
	t.Run("sql", func(t *testing.T) { postgresChecks(t, pgNoStream{Source: pg}, table, i, false) })
}

// pgNoStream is the PostgreSQL source without its Stream method (an
// ambiguous selector is promoted from neither embedded field), so that the
// expert takes the aggregate statements, with the source's other abilities
// (row estimates, statistics) intact.
type pgNoStream struct {
	*postgres.Source
	noStreamMethod
}

type noStreamMethod struct{}

func (noStreamMethod) Stream() {}

func postgresChecks(t *testing.T, src warehouse.Source, table string, i int, streams bool) {
	ctx := context.Background()
	if _, ok := src.(experts.Streamer); ok != streams {
		t.Fatalf("the source streams: %v, want %v", ok, streams)
	}
	h := serverHarness(t, src, table, experts.Options{SampleRows: 1_000_000})
	cat := h.cat
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[string]string{
		"amount": `[{outlier 3 ["19000.00" "16000.00" "13000.00"]}]`,
		"qty":    `[{negative_value 1 ["-1"]}]`,
		"email":  `[{duplicate 1 ["user99@example.com"]}]`,
		"note":   `[{empty_string 32 [""]} {placeholder 7 ["N/A"]}]`,
	}
	for _, c := range []string{"id", "amount", "qty", "email", "note", "sold_at", "width", "height", "score"} {
		p, _ := h.profile(t, table+"."+c)
		var got []found
		for _, a := range p.Anomalies {
			got = append(got, found{a.Kind, a.Count, fmt.Sprintf("%q", a.Examples)})
		}
		if g := fmt.Sprint(got); g != cmpOr(want[c], "[]") {
			t.Errorf("%s: got %s, want %s", c, g, want[c])
		}
	}
	p, _ := h.profile(t, table+".score")
	if p.Quantiles == nil || p.Quantiles.Estimate {
		t.Errorf("score quantiles %+v", p.Quantiles)
	}
	// Histogram bounds: the least value, percentile_cont's deciles
	// (interpolated at p·(n−1)), the greatest.
	var scores []float64
	for j := range i {
		scores = append(scores, float64(j*7919%1000)/10)
	}
	slices.Sort(scores)
	cont := func(q float64) float64 {
		pos := q * float64(len(scores)-1)
		lo := int(pos)
		if lo+1 >= len(scores) {
			return scores[lo]
		}
		return scores[lo] + (pos-float64(lo))*(scores[lo+1]-scores[lo])
	}
	if h := p.Histogram; h == nil || len(h.Bounds) != 11 || h.Estimate {
		t.Errorf("score histogram %+v", h)
	} else {
		for k, b := range h.Bounds {
			if want := cont(float64(k) / 10); math.Abs(b-want) > 1e-9 {
				t.Errorf("score bound %d = %v, want %v", k, b, want)
			}
		}
		// Counts of (bound, next bound], the first bucket from the least.
		want := make([]int64, 10)
		for _, v := range scores {
			k := 0
			for k < 9 && v > h.Bounds[k+1] {
				k++
			}
			want[k]++
		}
		if fmt.Sprint(h.Counts) != fmt.Sprint(want) {
			t.Errorf("score histogram counts %v, want %v", h.Counts, want)
		}
	}
	for _, k := range []string{"temporal:" + table + ".sold_at", "correlation:" + table + ".width~" + table + ".height"} {
		e, err := cat.Get(ctx, catalog.KindInsight, k)
		if err != nil {
			t.Errorf("insight %s: %v", k, err)
			continue
		}
		var d catalog.InsightDoc
		e.Decode(&d)
		if !strings.Contains(d.Description, "December holds 31% of rows") && !strings.Contains(d.Description, "r = 1.00") {
			t.Errorf("%s: %s", k, d.Description)
		}
	}

	// Sampled (about 100 of the 320 rows, the same rows in every query):
	// score's 320 distinct values are counted over the whole table by the
	// engine's HyperLogLog registers; qty's few values stay as counted.
	h = serverHarness(t, src, table, experts.Options{SampleRows: 100})
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	p, e := h.profile(t, table+".score")
	if !p.Sampled || !p.DistinctIsEstimate || p.DistinctCount == nil || *p.DistinctCount != 320 ||
		!strings.Contains(strings.Join(e.Evidence, ";"), "HyperLogLog") {
		t.Errorf("sampled score: distinct %v of %d sampled rows, evidence %q", p.DistinctCount, p.Rows, e.Evidence)
	}
	if p, _ := h.profile(t, table+".qty"); p.DistinctCount == nil || *p.DistinctCount > 10 {
		t.Errorf("sampled qty: distinct %v, want the few values seen", p.DistinctCount)
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
