package statistical

import (
	"github.com/discover-db/discover/experts"

	"context"
	"fmt"
	"math"
	"strings"

	"github.com/discover-db/discover/catalog"
)

const (
	// maxCorrelated bounds the columns of one correlation query: the query
	// has one aggregate per pair, n(n-1)/2 of them.
	maxCorrelated = 20
	// minCorrelation is the |r| from which a pair is reported.
	minCorrelation = 0.7
	// correlationMinRows: fewer complete rows make r too noisy to report.
	correlationMinRows = 30
	// correlationMaxNulls: columns with more missing values are left out,
	// because the query keeps only rows where every column has a value.
	correlationMaxNulls = 0.1
)

// correlationColumns picks the measures worth correlating: numeric, not a
// key, not a flag, not constant, and nearly always present.
func (p *profiler) correlationColumns(stats []*colStats) []*colStats {
	var out []*colStats
	for _, s := range stats {
		if !s.spec.Measure || s.date || s.mean == nil || s.sq == nil || s.distinct == nil || *s.distinct < 3 {
			continue
		}
		n := derefInt(s.numeric)
		if n < correlationMinRows || float64(n) < (1-correlationMaxNulls)*float64(p.rows) ||
			stddev(*s.mean, *s.sq) == 0 {
			continue
		}
		out = append(out, s)
		if len(out) == maxCorrelated {
			break
		}
	}
	return out
}

// correlationSQL computes in one pass, over the rows where every column is
// numeric, the mean and mean square of each column and the mean product of
// each pair. Values are centred on the means the profile already has,
// which keeps E[xy]−E[x]E[y] accurate for large values with small spread;
// the centring need not be exact, so a resampled table does no harm.
func (p *profiler) correlationSQL(cols []*colStats) string {
	vals := make([]string, len(cols))
	var where []string
	for i, s := range cols {
		v := p.d.Numeric(p.d.QuoteIdent(s.spec.Name))
		vals[i] = fmt.Sprintf("(%s - %s)", v, literal(*s.mean))
		where = append(where, v+" IS NOT NULL")
	}
	var b strings.Builder
	b.WriteString("SELECT COUNT(*) AS n")
	for i, v := range vals {
		fmt.Fprintf(&b, ", AVG(%s) AS m%d, AVG(%s * %s) AS s%d", v, i, v, v, i)
	}
	for i := range vals {
		for j := i + 1; j < len(vals); j++ {
			fmt.Fprintf(&b, ", AVG(%s * %s) AS p%d_%d", vals[i], vals[j], i, j)
		}
	}
	fmt.Fprintf(&b, " FROM %s WHERE %s", p.from, strings.Join(where, " AND "))
	return b.String()
}

// correlationFigures returns the figures correlationSQL names (n, m0,
// s0, p0_1, …), from the streaming pass's numbers when it kept them, else
// from the query, and says how they were made. A nil get means no figures.
func (p *profiler) correlationFigures(ctx context.Context, cols []*colStats) (get func(string) (float64, bool), how string, err error) {
	if figs, ok := streamCorrelation(cols); ok {
		return func(name string) (float64, bool) { v, ok := figs[name]; return v, ok },
			"the same pass's sums of x, y, x², y², xy", nil
	}
	p.queries++
	res, err := p.env.Query(ctx, p.correlationSQL(cols))
	if err != nil {
		return nil, "", err
	}
	if len(res.Rows) != 1 {
		return nil, "", nil
	}
	idx := make(map[string]int, len(res.Columns))
	for i, c := range res.Columns {
		idx[c] = i
	}
	return func(name string) (float64, bool) {
		i, ok := idx[name]
		if !ok {
			return 0, false
		}
		return toFloat(res.Rows[0][i])
	}, "one aggregate of x, y, x², y², xy", nil
}

// streamCorrelation computes correlationSQL's figures from the numbers a
// streaming pass kept, row by row: the rows where every column has one,
// centred on the profile's means.
func streamCorrelation(cols []*colStats) (map[string]float64, bool) {
	if !passKept(cols) {
		return nil, false
	}
	rows := len(cols[0].acc.nums)
	k := len(cols)
	sum := make([]float64, k)
	sq := make([]float64, k)
	prod := make([]float64, k*k)
	x := make([]float64, k)
	var n float64
rows:
	for r := 0; r < rows; r++ {
		for i, s := range cols {
			v := s.acc.nums[r]
			if math.IsNaN(v) {
				continue rows
			}
			x[i] = v - *s.mean
		}
		n++
		for i := range k {
			sum[i] += x[i]
			sq[i] += x[i] * x[i]
			for j := i + 1; j < k; j++ {
				prod[i*k+j] += x[i] * x[j]
			}
		}
	}
	figs := map[string]float64{"n": n}
	if n == 0 {
		return figs, true
	}
	for i := range k {
		figs[fmt.Sprintf("m%d", i)] = sum[i] / n
		figs[fmt.Sprintf("s%d", i)] = sq[i] / n
		for j := i + 1; j < k; j++ {
			figs[fmt.Sprintf("p%d_%d", i, j)] = prod[i*k+j] / n
		}
	}
	return figs, true
}

// correlations reports the strongly correlated pairs of a table's measures.
// Correlations are an extra: a failed query is an uncertainty, not a
// failed table.
func (p *profiler) correlations(ctx context.Context, stats []*colStats) ([]insight, error) {
	cols := p.correlationColumns(stats)
	if len(cols) < 2 {
		return nil, nil
	}
	get, how, err := p.correlationFigures(ctx, cols)
	if err != nil {
		if experts.Fatal(ctx, err) {
			return nil, err
		}
		p.uncertain(ctx, p.name, fmt.Sprintf("correlations of %s could not be computed: %v", p.name, err), err)
		return nil, nil
	}
	if get == nil {
		return nil, nil
	}
	n, _ := get("n")
	if n < correlationMinRows {
		return nil, nil
	}
	m := make([]float64, len(cols))
	v := make([]float64, len(cols))
	for i := range cols {
		mi, ok1 := get(fmt.Sprintf("m%d", i))
		si, ok2 := get(fmt.Sprintf("s%d", i))
		if !ok1 || !ok2 {
			v[i] = math.NaN()
			continue
		}
		m[i], v[i] = mi, si-mi*mi
	}
	on := "on " + p.name
	if p.sampled {
		on = fmt.Sprintf("on %s of %s", p.sampleNoun(), p.name)
	}
	// Rank correlations on a sample find what Pearson's r misses: columns
	// that rise together along a curve. They are an extra: without a
	// sample, only Pearson's r is reported.
	rk, rkHow, err := p.rankSample(ctx, cols)
	if err != nil && experts.Fatal(ctx, err) {
		return nil, err
	}
	var out []insight
	for i := range cols {
		for j := i + 1; j < len(cols); j++ {
			pij, ok := get(fmt.Sprintf("p%d_%d", i, j))
			if !ok || !(v[i] > 0) || !(v[j] > 0) {
				continue
			}
			r := (pij - m[i]*m[j]) / math.Sqrt(v[i]*v[j])
			if math.IsNaN(r) {
				continue
			}
			r = math.Max(-1, math.Min(1, r))
			rho, haveRho := rk.rho(i, j)
			linear := math.Abs(r) >= minCorrelation
			monotone := haveRho && math.Abs(rho) >= minCorrelation
			if !linear && !monotone {
				continue
			}
			a, b := p.name+"."+cols[i].spec.Name, p.name+"."+cols[j].spec.Name
			ev := []string{fmt.Sprintf("Pearson r=%.4f over n=%d rows where all %d correlated columns are numeric, from %s %s",
				r, int64(n), len(cols), how, on)}
			if haveRho {
				ev = append(ev, fmt.Sprintf("Spearman rho=%.4f over %d rows (%s)", rho, rk.n, rkHow))
			}
			var desc string
			if linear {
				dir := "positively"
				if r < 0 {
					dir = "negatively"
				}
				desc = fmt.Sprintf("%s and %s are strongly %s correlated (Pearson r = %.2f over %s rows)",
					a, b, dir, r, catalog.Thousands(int64(n)))
			} else {
				dir := "rises with"
				if rho < 0 {
					dir = "falls as"
				}
				desc = fmt.Sprintf("%s %s %s, though not along a straight line (Spearman ρ = %.2f, Pearson r = %.2f)",
					b, dir, a, rho, r)
			}
			out = append(out, insight{
				key: "correlation:" + a + "~" + b,
				doc: catalog.InsightDoc{Kind: "correlation", Tables: []string{p.name}, Columns: []string{a, b},
					Description: desc},
				evidence: ev,
			})
		}
	}
	return out, nil
}
