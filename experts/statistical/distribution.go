package statistical

import (
	"fmt"
	"math"
	"strconv"

	"github.com/discover-db/discover/catalog"
)

const (
	// distributionMinValues keeps shape findings off columns too small for
	// a shape to mean anything.
	distributionMinValues = 100
	// strongSkew is Pearson's second skewness coefficient, 3(mean −
	// median)/stddev, from which a distribution is called skewed; beyond 1
	// is the usual reading of "strong".
	strongSkew = 1.0
	// heavyTailRatio: a 95th percentile this many times the median marks a
	// tail that averages hide.
	heavyTailRatio = 10.0
	// zeroInflated is the share of zeros from which a measure is mostly
	// "nothing happened" rows.
	zeroInflated = 0.3
	// imbalancedShare is the share of one category from which the others
	// are rare.
	imbalancedShare = 0.9
	// shapeMinDistinct: fewer distinct values make a scale of steps, not a
	// shape.
	shapeMinDistinct = 20
)

// distributionInsights describes the shape of a table's columns: skewed
// and heavy-tailed measures, measures that are mostly zero, categories
// dominated by one value. Each finding names its figures.
func (p *profiler) distributionInsights(stats []*colStats) []insight {
	var out []insight
	on := p.name
	if p.sampled {
		on = p.sampleNoun() + " of " + p.name
	}
	for _, s := range stats {
		if !s.ok || s.date {
			continue
		}
		col := p.name + "." + s.spec.Name
		nv := derefInt(s.numeric)
		zeroHeavy := false
		if s.spec.Measure && nv >= distributionMinValues && s.distinct != nil && *s.distinct >= outlierMinDistinct {
			if f := float64(s.zeros) / float64(nv); f >= zeroInflated && f < 1 {
				zeroHeavy = true
				out = append(out, insight{
					key: "distribution:zero_inflated:" + col,
					doc: catalog.InsightDoc{Kind: "distribution", Tables: []string{p.name}, Columns: []string{col},
						Description: fmt.Sprintf("%s is zero in %s%% of rows with a value: most rows record nothing, and averages mix the two populations", col, pct0(f))},
					evidence: []string{fmt.Sprintf("%d of %d numeric values are 0 on %s", s.zeros, nv, on)},
				})
			}
		}
		// The zeros of a zero-inflated measure are its shape already.
		if in, ok := p.shapeInsight(s, col, on); ok && !zeroHeavy {
			out = append(out, in)
		}
		if in, ok := p.imbalanceInsight(s, col, on); ok {
			out = append(out, in)
		}
	}
	return out
}

// shapeInsight reports a measure whose mean sits far from its median, or
// whose top 5% lie an order of magnitude above it.
func (p *profiler) shapeInsight(s *colStats, col, on string) (insight, bool) {
	nv := derefInt(s.numeric)
	if !s.spec.Measure || nv < distributionMinValues || len(s.quant) != len(quantilePoints) || s.mean == nil || s.sq == nil {
		return insight{}, false
	}
	sd := stddev(*s.mean, *s.sq)
	med, p95 := s.quant[1], s.quant[3]
	// A handful of small counts (quantities 1..5) is skewed by nature.
	if sd == 0 || s.distinct == nil || *s.distinct < shapeMinDistinct {
		return insight{}, false
	}
	skew := 3 * (*s.mean - med) / sd
	heavy := med > 0 && p95 >= heavyTailRatio*med
	if math.Abs(skew) < strongSkew && !heavy {
		return insight{}, false
	}
	dir := "right"
	if skew < 0 {
		dir = "left"
	}
	desc := fmt.Sprintf("%s is %s-skewed: mean %s against a median of %s", col, dir, fmtNum(*s.mean), fmtNum(med))
	if math.Abs(skew) < strongSkew {
		desc = fmt.Sprintf("%s has a heavy tail", col)
	}
	if heavy {
		desc += fmt.Sprintf("; the top 5%% of values lie beyond %s, %s× the median", fmtNum(p95), strconv.FormatFloat(p95/med, 'f', 0, 64))
	}
	return insight{
		key: "distribution:shape:" + col,
		doc: catalog.InsightDoc{Kind: "distribution", Tables: []string{p.name}, Columns: []string{col}, Description: desc},
		evidence: []string{fmt.Sprintf("mean=%s median=%s p95=%s stddev=%s, Pearson skewness 3(mean-median)/stddev=%.2f over %d values on %s",
			fmtFloat(*s.mean), fmtFloat(med), fmtFloat(p95), fmtFloat(sd), skew, nv, on)},
	}, true
}

// imbalanceInsight reports a categorical column whose most frequent value
// holds nearly every row: the other categories are rare events.
func (p *profiler) imbalanceInsight(s *colStats, col, on string) (insight, bool) {
	if len(s.top) < 2 || s.distinct == nil || *s.distinct > int64(len(s.top)) || s.nonNull < distributionMinValues ||
		s.spec.Measure && *s.distinct > 2 {
		return insight{}, false // only fully listed categories, and 0/1 flags among numbers
	}
	top := s.top[0]
	share := float64(top.Count) / float64(s.nonNull)
	if share < imbalancedShare {
		return insight{}, false
	}
	return insight{
		key: "distribution:imbalance:" + col,
		doc: catalog.InsightDoc{Kind: "distribution", Tables: []string{p.name}, Columns: []string{col},
			Description: imbalanceText(col, s.top, share, *s.distinct)},
		evidence: []string{fmt.Sprintf("COUNT(*) GROUP BY %s: %s=%d of %d non-null values on %s", s.spec.Name, top.Value, top.Count, s.nonNull, on)},
	}, true
}

func imbalanceText(col string, top []catalog.ValueCount, share float64, distinct int64) string {
	rest := fmt.Sprintf("the other %d categories share the rest", distinct-1)
	if distinct == 2 {
		rest = strconv.Quote(top[1].Value) + " the rest"
	}
	return fmt.Sprintf("%s is imbalanced: %s holds %s%% of values, %s", col, strconv.Quote(top[0].Value), pct0(share), rest)
}
