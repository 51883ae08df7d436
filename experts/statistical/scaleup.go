package statistical

import (
	"context"
	"fmt"
	"math"
)

// A sample sees only part of a column's values, so its distinct count
// understates every column whose values do not all repeat within it. The
// Haas–Stokes "Duj1" estimator scales it up from the values seen exactly
// once: D = n·d / (n − f1 + f1·n/N), for d distinct values and f1
// singletons among n sampled rows of N. A column of unique values (f1 = d
// = n) comes out at N, a code list whose values all repeat (f1 = 0) at d.
// It is what PostgreSQL's ANALYZE uses for n_distinct.
func duj1(n, d, f1, total int64) int64 {
	if n <= 0 || total <= n || f1 <= 0 {
		return d
	}
	den := float64(n) - float64(f1) + float64(f1)*float64(n)/float64(total)
	if den <= 0 {
		return d
	}
	est := float64(n) * float64(d) / den
	return int64(math.Round(math.Max(float64(d), math.Min(est, float64(total)))))
}

// singletons counts the values the pass saw exactly once.
func (a *colAcc) singletons() int64 {
	var f1 int64
	if !a.overflow {
		for _, e := range a.ents {
			if e.n == 1 {
				f1++
			}
		}
		return f1
	}
	for i := range a.log {
		if (i == 0 || a.log[i] != a.log[i-1]) && (i+1 == len(a.log) || a.log[i+1] != a.log[i]) {
			f1++
		}
	}
	return f1
}

// scaleUp replaces the sampled distinct counts by Duj1 estimates for the
// whole table, on engines where no count over the whole table is cheap
// (approxDistinct serves DuckDB and Trino). The pass knows its singletons;
// the SQL path counts them in one query of GROUP BY … HAVING COUNT(*) = 1
// branches, on the same sample where the engine seeds it (PostgreSQL).
// Columns whose values nearly all repeat in the sample are left alone:
// there is nothing to scale. A failure keeps the sample's figures.
func (p *profiler) scaleUp(ctx context.Context, stats []*colStats) []string {
	if !p.sampled || p.total <= p.rows || p.d.Name() == "duckdb" || p.d.Name() == "trino" {
		return nil
	}
	var bs []branch
	for _, s := range stats {
		if !s.ok || s.distinct == nil || s.spec.Blob || s.spec.CountOnly || s.nonNull == 0 {
			continue
		}
		if a := s.acc; a != nil {
			p.applyDuj1(s, a.singletons())
			continue
		}
		// Fewer distinct values than a tenth of the rows: they repeat.
		if float64(*s.distinct) < 0.1*float64(s.nonNull) {
			continue
		}
		q := p.d.QuoteIdent(s.spec.Name)
		bs = append(bs, branch{col: s.spec.Index, sql: fmt.Sprintf(
			"SELECT %d AS k, %d AS a, 0 AS b, %s AS v, COUNT(*) AS n FROM (SELECT %s FROM %s WHERE %s IS NOT NULL GROUP BY %s HAVING COUNT(*) = 1) f",
			s.spec.Index, codeSingletons, nullText(p.d), q, p.from, q, q)})
	}
	if len(bs) == 0 {
		return nil
	}
	byIndex := map[int]*colStats{}
	for _, s := range stats {
		byIndex[s.spec.Index] = s
	}
	f1 := map[int]int64{}
	bad, err := p.runBranches(ctx, bs, func(r branchRow) {
		if r.a == codeSingletons {
			f1[r.k] = r.n
		}
	})
	var failed []string
	if err != nil {
		return []string{p.name + " (distinct scale-up)"}
	}
	for k := range bad {
		failed = append(failed, p.name+"."+byIndex[k].spec.Name+" (distinct scale-up)")
	}
	for k, n := range f1 {
		if _, isBad := bad[k]; !isBad {
			p.applyDuj1(byIndex[k], n)
		}
	}
	return failed
}

// applyDuj1 scales one column's sampled distinct count up to the table.
func (p *profiler) applyDuj1(s *colStats, f1 int64) {
	d := *s.distinct
	// The table's non-NULL values, at the sample's share of them.
	values := int64(math.Round(float64(s.nonNull) * float64(p.total) / float64(p.rows)))
	est := duj1(s.nonNull, d, f1, values)
	if est == d {
		return
	}
	s.distinct = &est
	s.evidence = append(s.evidence, fmt.Sprintf("%d distinct values estimated for the whole table (Haas–Stokes Duj1 from %d distinct and %d seen once among %d sampled values of about %d)",
		est, d, f1, s.nonNull, values))
}
