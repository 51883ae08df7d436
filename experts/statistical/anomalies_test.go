package statistical_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/warehouse"
)

// qualityFixture is one table of 320 sales with planted problems beside
// clean columns, every figure known by construction:
//
//   - amount: 20..219, with rows 10, 20 and 30 a hundred times too large;
//   - qty: 1..9, with -1 and -2 in rows 5 and 6;
//   - age: 18..77, with 150 and -3 in rows 7 and 8;
//   - email: unique but for row 100, which repeats row 99's;
//   - note: NULL in 32 rows, ” in 32, 'N/A' in 7, 'unknown' in 7;
//   - misc (untyped): numbers, with text in the 8 rows i%40 == 0;
//   - sold_at: 10 rows a month in 2022 and 2023, 50 in each December;
//   - created_at: daily from 2022-03-01, with two rows in 2099;
//   - width and height: height is twice width, give or take 0.2;
//   - empty_col all NULL, const_col always 'x';
//   - score, status, code: clean.
func qualityFixture(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "quality.db")
	stmts := []string{`CREATE TABLE sales (id INTEGER PRIMARY KEY, amount NUMERIC, qty INTEGER, age INTEGER,
		email TEXT, note TEXT, misc, sold_at TEXT, created_at TEXT, width REAL, height REAL,
		empty_col TEXT, const_col TEXT, score REAL, status TEXT, code TEXT)`}
	var sold []string
	for y := 2022; y <= 2023; y++ {
		for m := 1; m <= 12; m++ {
			n := 10
			if m == 12 {
				n = 50
			}
			for d := range n {
				sold = append(sold, fmt.Sprintf("%d-%02d-%02d %02d:00:00", y, m, 1+d%28, d%24))
			}
		}
	}
	// The span must start on the first and end on the last day of a month
	// for both edge months to count as complete.
	sold[len(sold)-1] = "2023-12-31 12:00:00"
	for i := range 320 {
		amount := 20 + i*37%200
		if i == 10 || i == 20 || i == 30 {
			amount *= 100
		}
		qty := 1 + i%9
		switch i {
		case 5:
			qty = -1
		case 6:
			qty = -2
		}
		age := 18 + i%60
		switch i {
		case 7:
			age = 150
		case 8:
			age = -3
		}
		email := fmt.Sprintf("'user%d@example.com'", i)
		if i == 100 {
			email = "'user99@example.com'"
		}
		note := fmt.Sprintf("'note %d'", i%7)
		switch {
		case i%10 == 0:
			note = "NULL"
		case i%10 == 1:
			note = "''"
		case i%50 == 2:
			note = "'N/A'"
		case i%50 == 3:
			note = "'unknown'"
		}
		misc := fmt.Sprint(i)
		if i%40 == 0 {
			misc = fmt.Sprintf("'x%d'", i)
		}
		created := fmt.Sprintf("date('2022-03-01', '+%d days')", i)
		if i == 50 || i == 51 {
			created = "'2099-01-01 00:00:00'"
		}
		width := float64(i%50) + 1.5
		height := 2*width + float64(i%3)*0.1
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO sales VALUES (%d, %d, %d, %d, %s, %s, %s, '%s', %s, %g, %g, NULL, 'x', %g, '%s', 'C%d')`,
			i, amount, qty, age, email, note, misc, sold[i], created, width, height,
			float64(i*7919%1000)/10, []string{"a", "b", "c"}[i%3], i))
	}
	build(t, path, stmts...)
	return path
}

type found struct {
	Kind     string
	Count    int64
	Examples string
}

func TestAnomalies(t *testing.T) { paths(t, testAnomalies) }

func testAnomalies(t *testing.T, wrap func(warehouse.Source) warehouse.Source, streamed bool) {
	h := setup(t, qualityFixture(t), experts.Options{SampleRows: 1_000_000}, wrap)
	if errs := h.runAll(t, statistical.New()); len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[string][]found{
		"amount":     {{"outlier", 3, `["19000" "16000" "13000"]`}},
		"qty":        {{"negative_value", 2, `["-2" "-1"]`}},
		"age":        {{"out_of_range", 2, `["150" "-3"]`}},
		"email":      {{"duplicate", 1, `["user99@example.com"]`}},
		"note":       {{"empty_string", 32, `[""]`}, {"placeholder", 14, `["N/A" "unknown"]`}},
		"misc":       {{"mixed_types", 8, `["x0" "x120" "x160" "x200" "x240"]`}},
		"created_at": {{"future_date", 2, `["2099-01-01 00:00:00"]`}},
		"empty_col":  {{"all_null", 320, `[]`}},
		"const_col":  {{"constant", 320, `["x"]`}},
	}
	cols := []string{"id", "amount", "qty", "age", "email", "note", "misc", "sold_at", "created_at", "width", "height",
		"empty_col", "const_col", "score", "status", "code"}
	for _, c := range cols {
		p, _ := h.profile(t, "sales."+c)
		var got []found
		for _, a := range p.Anomalies {
			got = append(got, found{a.Kind, a.Count, fmt.Sprintf("%q", a.Examples)})
			if a.Description == "" {
				t.Errorf("%s: %s without a description", c, a.Kind)
			}
		}
		// Clean columns must have none: want[c] is nil for them.
		if fmt.Sprint(got) != fmt.Sprint(want[c]) {
			t.Errorf("sales.%s anomalies:\n got %v\nwant %v", c, got, want[c])
			for _, a := range p.Anomalies {
				t.Logf("  %s: %s", a.Kind, a.Description)
			}
		}
	}

	p, _ := h.profile(t, "sales.amount")
	if d := p.Anomalies[0].Description; !strings.Contains(d, "3 of 320 values lie far above the rest") {
		t.Errorf("outlier description %q", d)
	}
	// score is i*7919 mod 1000 / 10 over 320 rows: nearest-rank quartiles
	// at offsets 80, 160, 239 and 303 of the sorted values.
	p, _ = h.profile(t, "sales.score")
	if q := p.Quantiles; q == nil || q.Estimate || fmt.Sprint(*q) != fmt.Sprint(catalog.Quantiles{P25: wantQ(t, 0.25), P50: wantQ(t, 0.5), P75: wantQ(t, 0.75), P95: wantQ(t, 0.95)}) {
		t.Errorf("score quantiles %+v", q)
	}
	p, _ = h.profile(t, "sales.status")
	if p.TextLength == nil || *p.TextLength != (catalog.TextLength{Min: 1, Avg: 1, Max: 1}) || p.Quantiles != nil {
		t.Errorf("status: text length %+v quantiles %+v", p.TextLength, p.Quantiles)
	}
	p, _ = h.profile(t, "sales.email")
	// Every one of the 320 values is an email address, for the semantic
	// expert to read.
	if want := []catalog.ValuePattern{{Class: "email", Share: 1, Sample: 320}}; !slices.Equal(p.ValuePatterns, want) {
		t.Errorf("email value patterns %+v, want %+v", p.ValuePatterns, want)
	}
	// "user0@example.com" .. "user319@example.com": 17 to 19 characters.
	if tl := p.TextLength; tl == nil || tl.Min != 17 || tl.Max != 19 {
		t.Errorf("email text length %+v", tl)
	}

	ctx := context.Background()
	insights := map[string]catalog.Entry{}
	entries, _ := h.env.RunEntries(ctx, catalog.KindInsight)
	for _, e := range entries {
		insights[e.Key] = e
	}
	desc := func(key string) string {
		var d catalog.InsightDoc
		if e, ok := insights[key]; ok {
			e.Decode(&d)
		}
		return d.Description
	}
	// December: 50 of 160 rows a year, 31%, 3.75 times an even twelfth.
	if d := desc("temporal:sales.sold_at"); d != "sales.sold_at: December holds 31% of rows (3.8× the monthly mean)" {
		t.Errorf("seasonality: %q", d)
	}
	// 312 rows: the query keeps the rows where every measure is a number,
	// and misc holds text in 8.
	if d := desc("correlation:sales.width~sales.height"); !strings.Contains(d, "strongly positively correlated (Pearson r = 1.00 over 312 rows)") {
		t.Errorf("correlation: %q", d)
	} else if ev := insights["correlation:sales.width~sales.height"].Evidence; len(ev) == 0 || !strings.HasPrefix(ev[0], "Pearson r=1.0000 over n=312 rows") {
		t.Errorf("correlation evidence %q", ev)
	}
	for k := range insights {
		switch {
		case k == "temporal:sales.sold_at", k == "correlation:sales.width~sales.height",
			strings.HasPrefix(k, "quality:"):
		default:
			t.Errorf("unexpected insight %s: %s", k, desc(k))
		}
	}
	var ts catalog.TableStatsDoc
	e, _ := h.cat.Get(ctx, catalog.KindTableStats, "sales")
	// count, aggregate, frequent values, value-pattern sample, detail,
	// anomalies (the fences' figures of every column in one pass, then the
	// examples), correlations, a sample for rank correlations; or the
	// count and one pass.
	if e.Decode(&ts); ts.Queries != pick(streamed, 2, 9) {
		t.Errorf("sales took %d queries", ts.Queries)
	}
	// The declared key, and code, unique in practice; email has one repeat.
	wantKeys := []catalog.KeyCandidate{{Column: "id", Declared: true, Completeness: 1, Uniqueness: 1},
		{Column: "code", Completeness: 1, Uniqueness: 1}}
	if !slices.Equal(ts.KeyCandidates, wantKeys) {
		t.Errorf("sales key candidates %+v, want %+v", ts.KeyCandidates, wantKeys)
	}
}

// wantQ is the nearest-rank quantile of the score column, computed in Go.
func wantQ(t *testing.T, p float64) float64 {
	t.Helper()
	var xs []float64
	for i := range 320 {
		xs = append(xs, float64(i*7919%1000)/10)
	}
	slices.Sort(xs)
	return xs[int(p*float64(len(xs)-1)+0.5)]
}
