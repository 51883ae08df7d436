package statistical

import (
	"math"
	"testing"
)

// TestStreamDistinctZeroAcrossOverflow: a column holding 0 both before
// and after it outgrows the exact count is counted with 0 once. The number 0
// hashes to 0, which the hash index keeps as 1; the log it overflows into
// once took the index's 1 for the rows before and 0 for the rows after, and
// a column of 138,027 distinct amounts was reported with 138,028.
func TestStreamDistinctZeroAcrossOverflow(t *testing.T) {
	var today civil
	for _, zero := range []any{float64(0), int64(0), math.Copysign(0, -1)} {
		a := &colAcc{spec: colSpec{}, lenMin: math.MaxInt64, expect: 2 * exactCap}
		a.add(zero, today)
		for i := 1; i <= exactCap+10; i++ {
			a.add(float64(i)+0.5, today)
		}
		a.add(zero, today)
		a.add(float64(0), today)
		a.finish(new([]uint64))
		if !a.overflow {
			t.Fatalf("%T 0: the column never outgrew the exact count", zero)
		}
		if got, want := a.distinctCount(), int64(exactCap+11); got != want {
			t.Errorf("%T 0: distinct %d, want %d", zero, got, want)
		}
	}
}
