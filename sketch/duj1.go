package sketch

import "math"

// A sample sees only part of a column's values, so its distinct count
// understates every column whose values do not all repeat within it. The
// Haas–Stokes "Duj1" estimator scales it up from the values seen exactly
// once: D = n·d / (n − f1 + f1·n/N), for d distinct values and f1
// singletons among n sampled rows of N. A column of unique values (f1 = d
// = n) comes out at N, a code list whose values all repeat (f1 = 0) at d.
// It is the estimator planners' statistics collectors use for a column's
// number of distinct values (n_distinct).
func Duj1(n, d, f1, total int64) int64 {
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
