package statistical

import (
	"context"
	"fmt"
	"strings"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts/valueclass"
)

// patternSample is how many values a text column's value patterns are read
// from when the profile does not hold all of its values.
const patternSample = 1000

// wantsPatterns picks the columns whose values' shapes are worth naming:
// text that is not known to be dates.
func wantsPatterns(s *colStats) bool {
	return s.ok && s.spec.Text && !s.spec.CountOnly && !s.date && s.nonNull > 0
}

// valuePatterns classifies the values of text columns (emails, URLs,
// UUIDs, phones, dates, numbers and JSON written as text) for the semantic
// expert: all values of a column the profile counted one by one (the pass's
// distinct values, or a code list's top values), else a sample: the pass's
// first distinct values, or one query of patternSample rows for the
// table's remaining columns. It returns the columns whose sample failed.
func (p *profiler) valuePatterns(ctx context.Context, stats []*colStats) []string {
	var need []*colStats
	for _, s := range stats {
		if !wantsPatterns(s) {
			continue
		}
		switch a := s.acc; {
		case a != nil && a.overflow:
			s.patterns = p.patternsOf(s, a.sample, nil, "the first distinct values read")
		case a != nil:
			vals, counts := make([]string, len(a.ents)), make([]int64, len(a.ents))
			for i, e := range a.ents {
				vals[i], counts[i] = e.v, e.n
			}
			s.patterns = p.patternsOf(s, vals, counts, "every value")
		case s.distinct != nil && int64(len(s.top)) == *s.distinct:
			vals, counts := make([]string, len(s.top)), make([]int64, len(s.top))
			for i, t := range s.top {
				vals[i], counts[i] = t.Value, t.Count
			}
			s.patterns = p.patternsOf(s, vals, counts, "every value")
		default:
			need = append(need, s)
		}
	}
	// A view is evaluated anew by every query; its tables' profiles hold
	// the patterns already.
	if len(need) == 0 || p.table.Kind == "view" {
		return nil
	}
	cols := make([]string, len(need))
	for i, s := range need {
		cols[i] = p.d.CastText(p.d.QuoteIdent(s.spec.Name))
	}
	p.queries++
	res, err := p.env.Query(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+p.subsample(patternSample)+" "+p.d.Limit(patternSample))
	if err != nil {
		var failed []string
		for _, s := range need {
			col := p.name + "." + s.spec.Name
			p.uncertain(ctx, col, fmt.Sprintf("value patterns of %s could not be sampled: %v", col, err), err)
			failed = append(failed, col)
		}
		return failed
	}
	for i, s := range need {
		var vals []string
		for _, r := range res.Rows {
			if i < len(r) {
				if v, ok := render(r[i]); ok {
					vals = append(vals, v)
				}
			}
		}
		s.patterns = p.patternsOf(s, vals, nil, fmt.Sprintf("the first %d rows", len(res.Rows)))
	}
	return nil
}

// patternsOf classifies values and says where they came from.
func (p *profiler) patternsOf(s *colStats, vals []string, counts []int64, from string) []catalog.ValuePattern {
	ps := valueclass.Shares(vals, counts)
	if len(ps) > 0 {
		var parts []string
		for _, vp := range ps {
			parts = append(parts, fmt.Sprintf("%s %s%%", vp.Class, pct(vp.Share)))
		}
		s.evidence = append(s.evidence, fmt.Sprintf("value patterns of %d values (%s of %s): %s",
			ps[0].Sample, from, p.name, strings.Join(parts, ", ")))
	}
	return ps
}
