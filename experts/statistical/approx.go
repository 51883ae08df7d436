package statistical

import (
	"context"
	"fmt"
	"strings"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

// approxDistinct replaces the distinct counts measured on a sample with a
// count over the whole table, on engines where that costs about one scan:
// a sample sees only a share of a column's values, so its distinct count
// understates every high-cardinality column. An engine whose sketch is
// close enough streams it (DistinctApprox); one whose exact count runs at
// about scan speed, or whose sketch misses by more than the 2% issue 4
// allows, or that has none and hashes slowly, counts exactly
// (DistinctExact: each engine's Capabilities says which, and why). Exact
// counts also keep what the anomaly checks read from them: a column whose
// distinct count equals its non-null count is unique. The engines left
// (DistinctScaled) are scaleUp's. A failure keeps the sample's figures and
// is reported as partial.
//
// Only tables within wholeScanFactor samples are read whole: sampling is
// there so that a 100M-row table is not, and its distinct counts are
// scaled up from the sample (scaleUp).
func (p *profiler) approxDistinct(ctx context.Context, stats []*colStats) []string {
	if !p.wholeScan() {
		return nil
	}
	var approx bool
	switch p.d.Capabilities().WholeDistinct {
	case warehouse.DistinctApprox:
		approx = true
	case warehouse.DistinctExact:
	default:
		return nil
	}
	var cols []*colStats
	for _, s := range stats {
		if s.ok && s.distinct != nil && !s.spec.Blob && !s.spec.CountOnly {
			cols = append(cols, s)
		}
	}
	var failed []string
	for start := 0; start < len(cols); start += maxColumnsPerQuery {
		chunk := cols[start:min(start+maxColumnsPerQuery, len(cols))]
		var sel []string
		for _, s := range chunk {
			frag, _ := p.d.CountDistinct(p.d.QuoteIdent(s.spec.Name), approx)
			sel = append(sel, frag+" AS "+alias(s.spec.Index, "ad"))
		}
		q := "SELECT " + strings.Join(sel, ", ") + " FROM " + p.d.QuoteTable(p.table.Name)
		res, err := p.env.Query(ctx, q)
		p.queries++
		if err != nil || len(res.Rows) == 0 {
			for _, s := range chunk {
				failed = append(failed, s.spec.Name+" (approximate distinct)")
			}
			continue
		}
		row := map[string]any{}
		for i, c := range res.Columns {
			row[strings.ToLower(c)] = res.Rows[0][i]
		}
		for _, s := range chunk {
			v, ok := toInt(row[alias(s.spec.Index, "ad")])
			if !ok {
				continue
			}
			s.distinct, s.distinctExact = &v, !approx
			how := "counted"
			if approx {
				how = "estimated by the engine's approximate distinct"
			}
			s.evidence = append(s.evidence, fmt.Sprintf("%d distinct values %s over all %d rows", v, how, p.total))
		}
	}
	return failed
}

// wholeScanFactor bounds the tables whose distinct values are counted over
// every row: at most this many times --sample-rows (10M rows by default).
// It is the bound of every expert's whole reads: the structural expert
// counts up to it and the scopes sample above it, and the profile reads
// their counts and bounds against it.
const wholeScanFactor = experts.WholeScanFactor

// wholeScan reports whether the table is sampled and small enough for one
// pass over all its rows to count its distinct values: never after a
// timeout (retry.go), where a pass over all of them is what failed, and
// never when total is a count that stopped (lower): the table may hold any
// number of rows more (on Trino, a table counted past one sample,
// experts.CountLimit: tpch.sf10.partsupp, 8M rows counted to 1,000,001,
// was read whole for its distinct values).
func (p *profiler) wholeScan() bool {
	return p.sampled && !p.attempt.retry() && !p.lower && p.total <= wholeScanFactor*p.env.Options.SampleRows
}
