package statistical

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
)

// spearmanRows bounds the rows rank correlations are computed on: ranks
// need a sort per column, and a sample of this size puts ρ within a few
// hundredths of the whole table's.
const spearmanRows = 20_000

// ranked holds the ranks of a sample of complete rows, one slice per
// correlated column.
type ranked struct {
	n     int
	ranks [][]float64
}

// rho is Spearman's ρ of columns i and j: Pearson's r of their ranks.
func (r ranked) rho(i, j int) (float64, bool) {
	if r.n < correlationMinRows || i >= len(r.ranks) || j >= len(r.ranks) {
		return 0, false
	}
	x, y := r.ranks[i], r.ranks[j]
	var mx, my float64
	for k := range x {
		mx += x[k]
		my += y[k]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for k := range x {
		dx, dy := x[k]-mx, y[k]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return math.Max(-1, math.Min(1, sxy/math.Sqrt(sxx*syy))), true
}

// rankSample ranks up to spearmanRows complete rows of cols: from the
// streaming pass's numbers (every k-th complete row), else from one query.
func (p *profiler) rankSample(ctx context.Context, cols []*colStats) (ranked, string, error) {
	var rows [][]float64
	how := ""
	if passKept(cols) {
		total := len(cols[0].acc.nums)
		complete := func(r int) bool {
			for _, s := range cols {
				if s.acc == nil || r >= len(s.acc.nums) || math.IsNaN(s.acc.nums[r]) {
					return false
				}
			}
			return true
		}
		var idx []int
		for r := range total {
			if complete(r) {
				idx = append(idx, r)
			}
		}
		step := max(1, (len(idx)+spearmanRows-1)/spearmanRows)
		for k := 0; k < len(idx); k += step {
			row := make([]float64, len(cols))
			for i, s := range cols {
				row[i] = s.acc.nums[idx[k]]
			}
			rows = append(rows, row)
		}
		how = fmt.Sprintf("1 in %d of the %d complete rows read by the pass", step, len(idx))
	} else {
		sel := make([]string, len(cols))
		var where []string
		for i, s := range cols {
			v := p.d.Numeric(p.d.QuoteIdent(s.spec.Name))
			sel[i] = v
			where = append(where, v+" IS NOT NULL")
		}
		p.queries++
		res, err := p.env.Query(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM "+p.subsample(spearmanRows)+" WHERE "+
			strings.Join(where, " AND ")+" "+p.d.Limit(spearmanRows))
		if err != nil {
			return ranked{}, "", err
		}
		for _, r := range res.Rows {
			row := make([]float64, len(cols))
			ok := len(r) == len(cols)
			for i := 0; ok && i < len(cols); i++ {
				row[i], ok = toFloat(r[i])
			}
			if ok {
				rows = append(rows, row)
			}
		}
		how = fmt.Sprintf("the first %d complete rows of %s", len(rows), p.from)
		if p.sampled {
			how = fmt.Sprintf("%d complete rows of %s of %s", len(rows), p.sampleNoun(), p.name)
		}
	}
	out := ranked{n: len(rows), ranks: make([][]float64, len(cols))}
	for i := range cols {
		col := make([]float64, len(rows))
		for k, r := range rows {
			col[k] = r[i]
		}
		out.ranks[i] = ranks(col)
	}
	return out, how, nil
}

// passKept reports whether the streaming pass kept every column's numbers,
// row by row.
func passKept(cols []*colStats) bool {
	for _, s := range cols {
		if s.acc == nil || s.acc.nums == nil || len(s.acc.nums) != len(cols[0].acc.nums) {
			return false
		}
	}
	return len(cols) > 0
}

// ranks gives each value its rank, 1 for the least; ties share the mean
// of the ranks they span.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case xs[a] < xs[b]:
			return -1
		case xs[a] > xs[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for k := i; k < j; k++ {
			out[idx[k]] = r
		}
		i = j
	}
	return out
}
