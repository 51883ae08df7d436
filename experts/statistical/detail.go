package statistical

import (
	"context"
	"fmt"
	"strconv"

	"github.com/discover-db/discover/warehouse"
)

// detail runs the table's detail query: the quantiles of measures on
// engines without a percentile aggregate (one QuantileByOffset per point,
// placed by the aggregate's count of numeric values), the calendar of each
// date column and the repeated values of columns that look unique. It
// returns the columns whose details failed.
func (p *profiler) detail(ctx context.Context, stats []*colStats) ([]string, error) {
	frags, _ := p.d.Quantiles("x", quantilePoints)
	var bs []branch
	byIndex := map[int]*colStats{}
	for _, s := range stats {
		byIndex[s.spec.Index] = s
		k := s.spec.Index
		if frags == nil && s.spec.Measure && !s.date && derefInt(s.numeric) > 0 && s.quant == nil {
			v := p.d.Numeric(p.d.QuoteIdent(s.spec.Name))
			for i, pt := range quantilePoints {
				off := warehouse.QuantileOffset(pt, *s.numeric)
				bs = append(bs, branch{col: k, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, %d AS b, %s AS v, 0 AS n FROM (%s) qo",
					k, codeQuantile, i, p.d.CastText("q"), p.d.QuantileByOffset(p.from, v, off))})
			}
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
	quant := map[int][]*float64{}
	bad, err := p.runBranches(ctx, bs, func(r branchRow) {
		s := byIndex[r.k]
		if s == nil {
			return
		}
		switch r.a {
		case codeQuantile:
			f, err := strconv.ParseFloat(r.v, 64)
			if !r.vOK || err != nil || r.b < 0 || r.b >= len(quantilePoints) {
				return
			}
			if quant[r.k] == nil {
				quant[r.k] = make([]*float64, len(quantilePoints))
			}
			quant[r.k][r.b] = &f
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
	for k, qs := range quant {
		vals := make([]float64, 0, len(qs))
		for _, q := range qs {
			if q != nil {
				vals = append(vals, *q)
			}
		}
		// A sampled table draws a new sample per query: an offset placed by
		// the aggregate's count may fall past the end of a smaller one.
		if len(vals) == len(quantilePoints) {
			byIndex[k].quant = vals
		}
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
