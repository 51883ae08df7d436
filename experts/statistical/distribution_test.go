package statistical_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/internal/scancheck"
	"github.com/discover-db/discover/warehouse"
)

// shapeFixture is 1,000 events whose columns have known shapes: amount
// log-uniform over 1..e⁹ (skewed, heavy-tailed), refund zero in 60% of
// rows, status "ok" in 96%, score even, kind a code list of 12 values,
// flag 1 in 97% of rows.
func shapeFixture(t *testing.T) (path string, amounts []float64) {
	path = filepath.Join(t.TempDir(), "shapes.db")
	var rows []string
	for i := range 1000 {
		amount := math.Round(math.Exp(float64(i*7%1000) / 1000 * 9))
		amounts = append(amounts, amount)
		refund := 0
		if i%10 >= 6 {
			refund = i%97 + 1
		}
		status := "ok"
		switch {
		case i%100 < 3:
			status = "retry"
		case i%100 == 3:
			status = "failed"
		}
		kind := fmt.Sprintf("k%02d", 1+i%12)
		flag := 1
		if i%100 >= 97 {
			flag = 0
		}
		rows = append(rows, fmt.Sprintf("(%d, %g, %d, '%s', %g, '%s', %d)", i+1, amount, refund, status, float64(i*7919%1000)/10, kind, flag))
	}
	build(t, path,
		`CREATE TABLE events (id INTEGER PRIMARY KEY, amount REAL, refund REAL, status TEXT, score REAL, kind TEXT, flag INTEGER)`,
		`INSERT INTO events VALUES `+strings.Join(rows, ", "))
	return path, amounts
}

func TestDistributionInsights(t *testing.T) { paths(t, testDistribution) }

func testDistribution(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	path, amounts := shapeFixture(t)
	h := setup(t, path, experts.Options{SampleRows: 1_000_000}, wrap)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	entries, err := h.env.RunEntries(context.Background(), catalog.KindInsight)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range entries {
		var d catalog.InsightDoc
		e.Decode(&d)
		if d.Kind == "distribution" {
			got[e.Key] = d.Description
		}
	}
	slices.Sort(amounts)
	median := amounts[500] // nearest rank: round(0.5 · 999)
	p95 := amounts[949]
	want := map[string]string{
		"distribution:shape:events.amount":         fmt.Sprintf("; the top 5%% of values lie beyond %s, %.0f× the median", grouped(p95), p95/median),
		"distribution:zero_inflated:events.refund": "events.refund is zero in 60% of rows with a value",
		"distribution:imbalance:events.status":     `events.status is imbalanced: "ok" holds 96% of values, the other 2 categories share the rest`,
		"distribution:imbalance:events.flag":       `events.flag is imbalanced: "1" holds 97% of values, "0" the rest`,
	}
	for k, w := range want {
		if !strings.Contains(got[k], w) {
			t.Errorf("%s = %q, want it to contain %q", k, got[k], w)
		}
	}
	if d := got["distribution:shape:events.amount"]; !strings.HasPrefix(d, "events.amount is right-skewed: mean ") ||
		!strings.Contains(d, fmt.Sprintf("against a median of %g", median)) {
		t.Errorf("amount shape %q (median %g)", d, median)
	}
	for k, d := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected insight %s: %s", k, d) // score is even, kind balanced, refund's shape is its zeros
		}
	}
	// An equi-depth histogram of score (0, 0.1, …, 99.9): bounds at the
	// nearest-rank deciles, counts by a plain count of each bucket.
	if streamed {
		var scores []float64
		for i := range 1000 {
			scores = append(scores, float64(i*7919%1000)/10)
		}
		slices.Sort(scores)
		p, _ := h.profile(t, "events.score")
		hg := p.Histogram
		if hg == nil || len(hg.Bounds) != 11 || len(hg.Counts) != 10 || hg.Estimate {
			t.Fatalf("score histogram %+v", hg)
		}
		var total int64
		for i := range 11 {
			if want := scores[int(math.Round(float64(i)/10*999))]; hg.Bounds[i] != want {
				t.Errorf("bound %d = %v, want %v", i, hg.Bounds[i], want)
			}
		}
		for i, c := range hg.Counts {
			var want int64
			for _, x := range scores {
				if (x > hg.Bounds[i] || i == 0 && x == hg.Bounds[0]) && x <= hg.Bounds[i+1] {
					want++
				}
			}
			if c != want {
				t.Errorf("bucket %d: %d values, want %d", i, c, want)
			}
			total += c
		}
		if total != 1000 {
			t.Errorf("histogram counts %d values, want 1000", total)
		}
	}
	// A code list keeps every one of its values, not the ten most frequent.
	p, _ := h.profile(t, "events.kind")
	if len(p.TopValues) != 12 {
		t.Errorf("kind has %d top values, want all 12: %+v", len(p.TopValues), p.TopValues)
	}
}

// grouped writes a whole number with thousands separators, as reports do.
func grouped(f float64) string {
	s := fmt.Sprintf("%.0f", f)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestManyDistinct: columns with more distinct values than the pass counts
// one by one (65,536) switch to hashes, and still give exact distinct
// counts and duplicates; the duplicated values themselves then come from
// the detail query.
func TestManyDistinct(t *testing.T) { paths(t, testManyDistinct) }

func testManyDistinct(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	path := filepath.Join(t.TempDir(), "many.db")
	build(t, path,
		`CREATE TABLE items (id INTEGER PRIMARY KEY, code TEXT, price REAL)`,
		// code repeats K1, K2 and K3 in the last three rows.
		`INSERT INTO items WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 70000)
			SELECT i, 'K' || (CASE WHEN i > 69997 THEN i - 69997 ELSE i END), i * 1.5 FROM r`)
	h := setup(t, path, experts.Options{SampleRows: 1_000_000}, wrap)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	p, _ := h.profile(t, "items.code")
	if p.DistinctCount == nil || *p.DistinctCount != 69997 || p.DistinctIsEstimate {
		t.Errorf("code distinct %v, want 69997 exactly", p.DistinctCount)
	}
	if len(p.Anomalies) != 1 || p.Anomalies[0].Kind != "duplicate" || p.Anomalies[0].Count != 3 ||
		fmt.Sprint(p.Anomalies[0].Examples) != "[K1 K2 K3]" {
		t.Errorf("code anomalies %+v", p.Anomalies)
	}
	p, _ = h.profile(t, "items.price")
	if p.DistinctCount == nil || *p.DistinctCount != 70000 || *p.Min != "1.5" || *p.Max != "105000" {
		t.Errorf("price %+v", p)
	}
	var ts catalog.TableStatsDoc
	e, _ := h.cat.Get(context.Background(), catalog.KindTableStats, "items")
	// Streamed: the count, the pass, and the detail query naming the
	// repeated codes.
	if e.Decode(&ts); streamed && ts.Queries != 3 {
		t.Errorf("items took %d queries", ts.Queries)
	}
}

// TestEpochPlaceholder: the Unix epoch is a placeholder where it stands
// out (50 sign-ups "on" 1970-01-01), and a date where it does not (one
// person born that day among 2,000 birthdays).
func TestEpochPlaceholder(t *testing.T) { paths(t, testEpoch) }

func testEpoch(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	path := filepath.Join(t.TempDir(), "epoch.db")
	build(t, path,
		`CREATE TABLE people (id INTEGER PRIMARY KEY, born DATE, signup DATE)`,
		`INSERT INTO people WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 2000)
			SELECT i,
				CASE WHEN i = 7 THEN '1970-01-01' ELSE date('1950-01-01', '+' || (i * 13 % 20000) || ' days') END,
				CASE WHEN i % 40 = 0 THEN '1970-01-01' ELSE date('2020-01-01', '+' || (i % 1000) || ' days') END
			FROM r`)
	h := setup(t, path, experts.Options{SampleRows: 1_000_000}, wrap)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	p, _ := h.profile(t, "people.born")
	for _, a := range p.Anomalies {
		if a.Kind == "placeholder" {
			t.Errorf("one birthday on 1970-01-01 called a placeholder: %+v", a)
		}
	}
	p, _ = h.profile(t, "people.signup")
	var got []string
	for _, a := range p.Anomalies {
		got = append(got, fmt.Sprintf("%s %d %v", a.Kind, a.Count, a.Examples))
	}
	if fmt.Sprint(got) != "[placeholder 50 [1970-01-01]]" {
		t.Errorf("signup anomalies %v, want the 50 epoch placeholders", got)
	}
}

// TestRankCorrelation: growth along a curve (y = x¹⁶) escapes Pearson's r
// but not Spearman's ρ, which is 1 for any rising function; an unrelated
// pair stays silent.
func TestRankCorrelation(t *testing.T) { paths(t, testRankCorrelation) }

func testRankCorrelation(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	var xs, ys []float64
	var rows []string
	for i := range 500 {
		x := float64(i + 1)
		y := math.Pow(x/100, 16)
		xs, ys = append(xs, x), append(ys, y)
		rows = append(rows, fmt.Sprintf("(%d, %g, %g, %g)", i+1, x, y, float64(i*7919%1000)))
	}
	r := pearson(xs, ys)
	if r >= 0.7 {
		t.Fatalf("the fixture's Pearson r is %.3f: not a curve Pearson misses", r)
	}
	path := filepath.Join(t.TempDir(), "curve.db")
	build(t, path, `CREATE TABLE growth (id INTEGER PRIMARY KEY, size REAL, cost REAL, noise REAL)`,
		`INSERT INTO growth VALUES `+strings.Join(rows, ", "))
	h := setup(t, path, experts.Options{SampleRows: 1_000_000}, wrap)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	entries, _ := h.env.RunEntries(context.Background(), catalog.KindInsight)
	got := map[string]catalog.Entry{}
	for _, e := range entries {
		got[e.Key] = e
	}
	e, ok := got["correlation:growth.size~growth.cost"]
	var d catalog.InsightDoc
	e.Decode(&d)
	if want := fmt.Sprintf("growth.cost rises with growth.size, though not along a straight line (Spearman ρ = 1.00, Pearson r = %.2f)", r); !ok || d.Description != want {
		t.Errorf("curve insight %q, want %q", d.Description, want)
	}
	if len(e.Evidence) != 2 || !strings.HasPrefix(e.Evidence[1], "Spearman rho=1.0000 over 500 rows") {
		t.Errorf("evidence %q", e.Evidence)
	}
	for k := range got {
		if strings.HasPrefix(k, "correlation:") && strings.Contains(k, "noise") {
			t.Errorf("unrelated noise correlated: %s", k)
		}
	}
}

func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// TestSampledDistinct: a sample's distinct counts are replaced by counts
// over the whole table, from a HyperLogLog sketch of one more streamed
// pass, within the 2% issue 4 asks of columns with more than 100k distinct
// values, while the table holds at most ten samples. A larger table is
// never read whole (issue 9): its counts are scaled up from the sample by
// Duj1. A column whose values all repeat in the sample keeps its count.
// The seeded PostgreSQL test covers the engine-built sketch.
func TestSampledDistinct(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.db")
	build(t, path, `CREATE TABLE events (id INTEGER PRIMARY KEY, pair INTEGER, kind TEXT, code TEXT, at TIMESTAMP)`,
		`INSERT INTO events WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 150000)
			SELECT i, (i + 1) / 2, 'k' || (i % 7), 'c' || (i % 120000), datetime(1700000000 + i * 7, 'unixepoch') FROM r`)
	for _, regime := range []struct {
		sample int64
		how    string
		tol    float64
	}{
		{20000, "HyperLogLog", 0.02}, // 7.5 samples: read whole
		// 30 samples: from the sample only. Duj1 is an estimator: within a
		// quarter here, where the sample's own counts are 96% short.
		{5000, "Duj1", 0.25},
	} {
		t.Run(regime.how, func(t *testing.T) {
			rec := &recorder{}
			h := setup(t, path, experts.Options{SampleRows: regime.sample}, func(s warehouse.Source) warehouse.Source {
				rec.Source = s
				return rec
			})
			if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
				t.Fatal(errs)
			}
			for _, c := range []struct {
				col    string
				want   float64
				scaled bool
			}{
				{"id", 150000, true},
				{"pair", 75000, true}, // each value twice in the table
				{"kind", 7, false},    // seven values, all seen many times
				{"code", 120000, true},
				{"at", 150000, true}, // read as text, as the pass reads dates
			} {
				p, e := h.profile(t, "events."+c.col)
				ev := strings.Join(e.Evidence, ";")
				got := int64(-1)
				if p.DistinctCount != nil {
					got = *p.DistinctCount
				}
				t.Logf("%s: %d distinct (want %v)", c.col, got, c.want)
				tol := regime.tol
				if !c.scaled {
					tol = 0
				}
				if !p.Sampled || !p.DistinctIsEstimate || math.Abs(float64(got)-c.want) > tol*c.want ||
					strings.Contains(ev, regime.how) != c.scaled {
					t.Errorf("%s: distinct %d on a sample of %d rows, want %v within %v by %s; evidence %q", c.col, got, p.Rows, c.want, tol, regime.how, ev)
				}
			}
			// Every statement but the sketch's reads the sample, or a count
			// that stops; the sketch's only when the table is within ten
			// samples. Within ten samples, SQLite's random() filter, which
			// reads the table, costs less than drawing 20,000 rows by rowid;
			// beyond, the sample is drawn by rowid. SQLite's plan and the
			// pages it reads tell (sqlite_sample_test.go).
			full, _ := fullReads(t, path, rec.statements(), scancheck.Cold(t, path, `SELECT count(*) FROM "events"`).Pages)
			for _, q := range full {
				t.Logf("whole table: %.120s", q)
			}
			if whole, want := len(full), map[string]int{"HyperLogLog": 2, "Duj1": 0}[regime.how]; whole != want {
				t.Errorf("%d statements read the whole table, want %d", whole, want)
			}
		})
	}
}

// recorder keeps the statements run through a source, streamed or not.
type recorder struct {
	warehouse.Source
	mu  sync.Mutex
	sql []string
}

func (r *recorder) keep(q string) {
	r.mu.Lock()
	r.sql = append(r.sql, q)
	r.mu.Unlock()
}

func (r *recorder) statements() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.sql)
}

func (r *recorder) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	r.keep(q)
	return r.Source.Query(ctx, q, opts)
}

func (r *recorder) Stream(ctx context.Context, q string, opts warehouse.QueryOptions, fn func(row []any) error) error {
	r.keep(q)
	return r.Source.(experts.Streamer).Stream(ctx, q, opts, fn)
}

// TestHostileValues: infinities (SQLite keeps 1e999 as one) leave the
// mean, spread and histogram out instead of failing the table, and a 200 KB
// text is quoted cut to 200 characters.
func TestHostileValues(t *testing.T) { paths(t, testHostile) }

func testHostile(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	path := filepath.Join(t.TempDir(), "hostile.db")
	build(t, path, `CREATE TABLE t (id INTEGER PRIMARY KEY, x REAL, big TEXT)`,
		`INSERT INTO t WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 200)
			SELECT i, CASE WHEN i = 7 THEN 1e999 WHEN i = 8 THEN -1e999 ELSE i * 0.5 END,
				CASE WHEN i = 3 THEN printf('%.*c', 200000, 'A') ELSE 'small' END FROM r`)
	h := setup(t, path, experts.Options{SampleRows: 1_000_000}, wrap)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	p, e := h.profile(t, "t.x")
	if p.Mean != nil || p.Stddev != nil || p.Histogram != nil ||
		p.DistinctCount == nil || *p.DistinctCount != 200 || *p.Max != "+Inf" || *p.Min != "-Inf" ||
		!strings.Contains(strings.Join(e.Evidence, ";"), "infinities") {
		t.Errorf("x with infinities: %+v min %v max %v evidence %q", p, *p.Min, *p.Max, e.Evidence)
	}
	// The quartiles lie among the finite values; the infinities are the
	// outliers.
	// Nearest rank 100 of the 200 sorted values (-Inf first, 3.5 and 4 missing).
	if q := p.Quantiles; q == nil || q.P50 != 51 {
		t.Errorf("x quantiles %+v", q)
	}
	if len(p.Anomalies) != 1 || p.Anomalies[0].Kind != "outlier" || p.Anomalies[0].Count != 2 {
		t.Errorf("x anomalies %+v", p.Anomalies)
	}
	p, _ = h.profile(t, "t.big")
	if p.Min == nil || len([]rune(*p.Min)) != 201 || !strings.HasSuffix(*p.Min, "A…") || p.TextLength == nil || p.TextLength.Max != 200000 {
		t.Errorf("big: min of %d characters, text length %+v", len([]rune(*p.Min)), p.TextLength)
	}
}
