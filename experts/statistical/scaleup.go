package statistical

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/sketch"
	"github.com/discover-db/discover/stablehash"
	"github.com/discover-db/discover/warehouse"
)

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
	return a.logSingletons
}

// scaleUp replaces the sampled distinct counts by counts for the whole
// table, on the engines approxDistinct leaves to it (WholeDistinct is
// DistinctScaled), and on every engine for tables too large to read whole
// (wholeScan). A HyperLogLog sketch reads every row at a fixed memory
// (sketch.HLL): on a source that streams rows it is built here from one
// more streamed pass, whose values are hashed and dropped; elsewhere the
// engine builds it itself (Dialect.HLLRegisters). Columns the sketch could not
// count fall back to Duj1 from the sample: the pass knows its singletons;
// the SQL path counts them in one query of GROUP BY … HAVING COUNT(*) = 1
// branches, on the same sample where the engine seeds it, before any
// sketch. Columns whose values all repeat in the sample (no singletons),
// or that hold a code list, are left alone: there is nothing to scale, and
// no sketch is built for them. A failure keeps the sample's figures.
func (p *profiler) scaleUp(ctx context.Context, stats []*colStats) []string {
	// The first rows of a table are no random sample: nothing to scale
	// by (and of a table known only to hold more than p.total−1 rows, no
	// size to scale to).
	if !p.sampled || p.total <= p.rows || p.lower || p.firstRows {
		return nil
	}
	if p.d.Capabilities().WholeDistinct != warehouse.DistinctScaled && p.wholeScan() {
		return nil // approxDistinct counted them
	}
	var cols []*colStats
	for _, s := range stats {
		if !s.ok || s.distinct == nil || s.spec.Blob || s.spec.CountOnly || s.nonNull == 0 {
			continue
		}
		if a := s.acc; a != nil {
			if a.singletons() == 0 {
				continue
			}
		} else if *s.distinct <= topValuesMaxDistinct {
			continue
		}
		cols = append(cols, s)
	}
	if len(cols) == 0 {
		return nil
	}
	sketched := map[int]bool{}
	if p.wholeScan() {
		// The sketch reads every row of the table for each column; the
		// sample's singletons say first which columns it can change. A
		// column none of whose values is seen once in the sample has
		// shown about every value the table holds (the share of rows
		// with a value not yet seen is about singletons / rows): it is
		// left alone, as the streaming path leaves it. Only columns
		// whose values repeat (fewer distinct values than a tenth of the
		// sampled ones) are asked: a column of mostly distinct values
		// has singletons for certain, and grouping its sample costs more
		// than its sketch (at star scale 1 on PostgreSQL, asking every
		// column cost 53 s of the server's time to save 28). A column
		// whose count fails is sketched, and is no failure when that
		// works.
		var sqlCols []*colStats
		for _, s := range cols {
			if s.acc == nil && repeats(s) {
				sqlCols = append(sqlCols, s)
			}
		}
		f1, _, err := p.singletons(ctx, sqlCols)
		if err != nil {
			return []string{p.name + " (distinct scale-up)"}
		}
		var toSketch []*colStats
		for _, s := range cols {
			if n, ok := f1[s.spec.Index]; ok && n == 0 {
				s.evidence = append(s.evidence, fmt.Sprintf("no value is seen only once among the %d sampled values: the sample's %d distinct values are taken for the whole table's", s.nonNull, *s.distinct))
				continue
			}
			toSketch = append(toSketch, s)
		}
		sketched = p.sketchDistinct(ctx, toSketch)
	}
	var rest []*colStats
	for _, s := range cols {
		if sketched[s.spec.Index] {
			continue
		}
		if a := s.acc; a != nil {
			p.applyDuj1(s, a.singletons())
			continue
		}
		if repeats(s) {
			continue
		}
		rest = append(rest, s)
	}
	f1, bad, err := p.singletons(ctx, rest)
	if err != nil {
		return []string{p.name + " (distinct scale-up)"}
	}
	var failed []string
	for _, s := range rest {
		if _, isBad := bad[s.spec.Index]; isBad {
			failed = append(failed, p.name+"."+s.spec.Name+" (distinct scale-up)")
		} else if n, ok := f1[s.spec.Index]; ok {
			p.applyDuj1(s, n)
		}
	}
	return failed
}

// repeats reports whether a sampled column's values repeat: fewer
// distinct values than a tenth of the sampled ones.
func repeats(s *colStats) bool {
	return float64(*s.distinct) < 0.1*float64(s.nonNull)
}

// singletons counts, on the sample, the values of each of cols seen only
// once (f1, by column index), in one query of GROUP BY … HAVING COUNT(*) =
// 1 branches, on the same sample where the engine seeds it. bad holds the
// columns whose count failed; err is a failure of them all.
func (p *profiler) singletons(ctx context.Context, cols []*colStats) (f1 map[int]int64, bad map[int]error, err error) {
	f1 = map[int]int64{}
	if len(cols) == 0 {
		return f1, nil, nil
	}
	bs := make([]branch, len(cols))
	for i, s := range cols {
		q := p.d.QuoteIdent(s.spec.Name)
		bs[i] = branch{col: s.spec.Index, sql: fmt.Sprintf(
			"SELECT %d AS k, %d AS a, 0 AS b, %s AS v, COUNT(*) AS n FROM (SELECT %s FROM %s WHERE %s IS NOT NULL GROUP BY %s HAVING COUNT(*) = 1) f",
			s.spec.Index, codeSingletons, nullText(p.d), q, p.from, q, q)}
	}
	bad, err = p.runBranches(ctx, bs, func(r branchRow) {
		if r.a == codeSingletons {
			f1[r.k] = r.n
		}
	})
	for k := range bad {
		delete(f1, k)
	}
	return f1, bad, err
}

// sketchValuesPerStatement bounds the values one sketch statement hashes
// (rows times columns): about 4 s of one core of PostgreSQL 15 here.
var sketchValuesPerStatement int64 = 20_000_000

// sketchDistinct counts the distinct values of cols over the whole table
// with HyperLogLog sketches and reports which columns it counted. A column
// it could not count keeps its sample's figure, for Duj1 to scale, and
// says why in its evidence.
func (p *profiler) sketchDistinct(ctx context.Context, cols []*colStats) map[int]bool {
	hists := map[int][]int64{}
	var errs map[int]error
	switch {
	case p.env.CanStream():
		errs = map[int]error{}
		for _, chunk := range chunks(cols, maxColumnsPerQuery) {
			h, err := p.sketchPass(ctx, chunk)
			for _, s := range chunk {
				if err != nil {
					errs[s.spec.Index] = err
				} else {
					hists[s.spec.Index] = h[s.spec.Index]
				}
			}
		}
	default:
		errs = map[int]error{}
		// Each branch reads the whole table: a statement holds as many as
		// sketchValuesPerStatement values allow, so that a large table's
		// sketches do not make one statement that outlasts the query
		// timeout (at star scale 1, 19 columns of 8.6M rows did, and the
		// minute was lost).
		per := int(max(1, sketchValuesPerStatement/max(p.total, 1)))
		parts := chunks(cols, per)
		for i, chunk := range parts {
			var bs []branch
			for _, s := range chunk {
				sql, ok := p.d.HLLRegisters(p.d.QuoteTable(p.table.Name), p.d.QuoteIdent(s.spec.Name), p.table.Columns[s.spec.Index].Type, sketch.HLLP)
				if !ok {
					return nil
				}
				bs = append(bs, branch{col: s.spec.Index, sql: fmt.Sprintf("SELECT %d AS k, %d AS a, r AS b, %s AS v, n FROM (%s) s",
					s.spec.Index, codeSketch, nullText(p.d), sql)})
			}
			bad, err := p.runBranches(ctx, bs, func(r branchRow) {
				if r.a != codeSketch || r.b < 1 || r.b > sketch.HLLQ+1 {
					return
				}
				if hists[r.k] == nil {
					hists[r.k] = make([]int64, sketch.HLLQ+2)
				}
				hists[r.k][r.b] += r.n
			})
			for k, e := range bad {
				errs[k] = e
			}
			if err != nil {
				for _, s := range chunk {
					errs[s.spec.Index] = err
				}
				if experts.Fatal(ctx, err) {
					// The next chunks would meet the same deadline or
					// budget: their columns keep their sample's figures.
					for _, rest := range parts[i+1:] {
						for _, s := range rest {
							errs[s.spec.Index] = err
						}
					}
					break
				}
			}
		}
	}
	done := map[int]bool{}
	for _, s := range cols {
		k := s.spec.Index
		if err := errs[k]; err != nil {
			s.evidence = append(s.evidence, fmt.Sprintf("the whole table's distinct values could not be sketched: %v", err))
			continue
		}
		c := hists[k]
		if c == nil {
			c = make([]int64, sketch.HLLQ+2) // no non-null value: no register set
		}
		var set int64
		for _, n := range c[1:] {
			set += n
		}
		c[0] = sketch.HLLM - set
		est := sketch.HLLEstimate(c)
		if math.IsNaN(est) {
			s.evidence = append(s.evidence, fmt.Sprintf("the whole table's distinct-value sketch was malformed (%d registers set of %d)", set, sketch.HLLM))
			continue
		}
		d := *s.distinct
		n := int64(math.Round(math.Max(float64(d), math.Min(est, float64(p.total)))))
		s.distinct = &n
		done[k] = true
		s.evidence = append(s.evidence, fmt.Sprintf("%d distinct values estimated over all %d rows by a HyperLogLog sketch (%d registers, standard error %.2f%%); the sample held %d",
			n, p.total, sketch.HLLM, 104/math.Sqrt(sketch.HLLM), d))
	}
	return done
}

// sketchPass streams cols of the whole table into one sketch each and
// returns their register histograms by column index.
func (p *profiler) sketchPass(ctx context.Context, cols []*colStats) (map[int][]int64, error) {
	exprs := make([]string, len(cols))
	sk := make([]*sketch.HLL, len(cols))
	for i, s := range cols {
		exprs[i] = p.streamColumn(s.spec)
		sk[i] = sketch.NewHLL()
	}
	q := "SELECT " + strings.Join(exprs, ", ") + " FROM " + p.d.QuoteTable(p.table.Name)
	p.queries++
	err := p.env.Stream(ctx, q, func(row []any) error {
		for i, v := range row[:min(len(row), len(sk))] {
			if v != nil {
				sk[i].Add(hllHash(v))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[int][]int64, len(cols))
	for i, s := range cols {
		out[s.spec.Index] = sk[i].Histogram()
	}
	return out, nil
}

// hllHash hashes a value as the streaming pass tells values apart (numbers
// by value, so 1 and 1.0 are one; text and blobs by their bytes, apart from
// numbers and from each other), with hashes that do not change between
// runs.
func hllHash(v any) uint64 {
	switch x := v.(type) {
	case int64:
		return stablehash.Number(float64(x), x)
	case float64:
		return stablehash.Number(x, 0)
	case string:
		return stablehash.Hash64(x)
	case []byte:
		return stablehash.Hash64(string(x)) ^ 0x9e3779b97f4a7c15
	}
	s, _ := render(v)
	return stablehash.Hash64(s)
}

// applyDuj1 scales one column's sampled distinct count up to the table.
func (p *profiler) applyDuj1(s *colStats, f1 int64) {
	d := *s.distinct
	// The table's non-NULL values, at the sample's share of them.
	values := int64(math.Round(float64(s.nonNull) * float64(p.total) / float64(p.rows)))
	est := sketch.Duj1(s.nonNull, d, f1, values)
	if est == d {
		return
	}
	s.distinct = &est
	s.evidence = append(s.evidence, fmt.Sprintf("%d distinct values estimated for the whole table (Haas–Stokes Duj1 from %d distinct and %d seen once among %d sampled values of about %d)",
		est, d, f1, s.nonNull, values))
}
