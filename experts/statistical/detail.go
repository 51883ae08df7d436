package statistical

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

// detail runs the table's detail query: the quantiles and histogram bounds
// of measures on engines without a percentile aggregate (rankedBranch), the
// calendar of each date column and the repeated values of columns that look
// unique. It returns the columns whose details failed.
func (p *profiler) detail(ctx context.Context, stats []*colStats) ([]string, error) {
	frags, _ := p.d.Quantiles("x", quantilePoints)
	var bs []branch
	byIndex := map[int]*colStats{}
	for _, s := range stats {
		byIndex[s.spec.Index] = s
		k := s.spec.Index
		if frags == nil && s.spec.Measure && !s.date && derefInt(s.numeric) > 0 && s.quant == nil {
			bs = append(bs, rankedBranch(p.d, p.from, k, p.d.Numeric(p.d.QuoteIdent(s.spec.Name))))
		}
		if s.date && s.cal == nil {
			s.cal = &calendar{months: map[int]int64{}}
			bs = append(bs, p.calendarBranches(s)...)
		}
		if p.looksUnique(s) && !s.dupDone {
			bs = append(bs, p.dupBranches(s)...)
		}
	}
	if len(bs) == 0 {
		return nil, nil
	}
	ranked := map[int]*rankedValues{}
	bad, err := p.runBranches(ctx, bs, func(r branchRow) {
		s := byIndex[r.k]
		if s == nil {
			return
		}
		switch r.a {
		case codeRanked:
			f, err := strconv.ParseFloat(r.v, 64)
			if !r.vOK || err != nil {
				return
			}
			if ranked[r.k] == nil {
				ranked[r.k] = &rankedValues{at: map[int64]float64{}}
			}
			ranked[r.k].n = r.n
			ranked[r.k].at[int64(r.b)] = f
		case codeMonth, codeDOW, codeHour:
			if s.cal != nil {
				s.cal.add(r)
			}
		case codeDupCount:
			n := r.n
			s.dupCount = &n
		case codeDupValue:
			if r.vOK {
				s.dupValues = append(s.dupValues, valueCount{r.v, r.n})
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for k, rv := range ranked {
		s := byIndex[k]
		s.quant, s.hist = rv.pick(quantilePoints), nil
		if bounds := rv.pick(histogramPoints); bounds != nil {
			s.hist = &catalog.Histogram{Bounds: bounds}
		}
		dropNonFinite(s)
	}
	var out []string
	for k, e := range bad {
		s := byIndex[k]
		s.cal = nil
		col := p.name + "." + s.spec.Name
		p.uncertain(ctx, col, fmt.Sprintf("quantiles, calendar or duplicates of %s could not be computed: %v", col, e), e)
		out = append(out, col)
	}
	return out, nil
}

// histogramPoints are the bounds of an equi-depth histogram: the least
// value, the deciles, the greatest.
var histogramPoints = append(append([]float64{0}, decilePoints...), 1)

// rankedBranch returns the values of expr at the ranks of quantilePoints
// and histogramPoints (Dialect.RankedValues): b the 0-based rank, n the
// count of values.
func rankedBranch(d warehouse.Dialect, from string, k int, expr string) branch {
	return branch{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, rn AS b, %s AS v, cnt AS n FROM (%s) rv",
		k, codeRanked, d.CastText("v"), d.RankedValues(from, expr, append(slices.Clone(quantilePoints), histogramPoints...)))}
}

// rankedValues are the values a rankedBranch returned, by rank, of n.
type rankedValues struct {
	n  int64
	at map[int64]float64
}

// pick returns the value at each point's nearest rank, nil unless all are
// there.
func (rv *rankedValues) pick(points []float64) []float64 {
	out := make([]float64, 0, len(points))
	for _, pt := range points {
		v, ok := rv.at[warehouse.QuantileOffset(pt, rv.n)]
		if !ok {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// histogramCounts adds, to a table's anomaly query, the branch counting a
// column's values per bucket of the histogram whose bounds the engine gave:
// (Bounds[i], Bounds[i+1]], the first bucket from its lower bound.
func (p *profiler) histogramCounts(s *colStats) (branch, bool) {
	h := s.hist
	if h == nil || len(h.Counts) > 0 || len(h.Bounds) < 2 {
		return branch{}, false
	}
	x := p.d.Numeric(p.d.QuoteIdent(s.spec.Name))
	var b strings.Builder
	b.WriteString("CASE")
	last := len(h.Bounds) - 2
	for i, bound := range h.Bounds[1 : last+1] {
		fmt.Fprintf(&b, " WHEN %s <= %s THEN %d", x, strconv.FormatFloat(bound, 'g', -1, 64), i)
	}
	fmt.Fprintf(&b, " ELSE %d END", last)
	// In one pass of the table: the non-NULL values, and how many are at
	// most each inner bound; a bucket's count is the difference, as the
	// CASE above assigns each value to the first bound it is at most.
	k := s.spec.Index
	items := []string{"COUNT(" + x + ")"}
	for _, bound := range h.Bounds[1 : last+1] {
		items = append(items, fmt.Sprintf("COUNT(CASE WHEN %s <= %s THEN 1 END)", x, strconv.FormatFloat(bound, 'g', -1, 64)))
	}
	pass := &passSpec{from: p.from, items: items, emit: func(vals []any, onRow func(branchRow)) {
		total, _ := toInt(vals[0])
		var below int64
		for i := 0; i <= last; i++ {
			upTo := total
			if i < last {
				upTo, _ = toInt(vals[i+1])
			}
			if n := upTo - below; n > 0 { // GROUP BY gives no row to an empty bucket
				onRow(branchRow{k: k, a: codeHistogram, b: i, n: n})
			}
			below = max(below, upTo)
		}
	}}
	return branch{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, bucket AS b, %s AS v, COUNT(*) AS n FROM (SELECT %s AS bucket FROM %s WHERE %s IS NOT NULL) hb GROUP BY bucket",
		k, codeHistogram, nullText(p.d), b.String(), p.from, x), pass: pass}, true
}
