package sketch

import (
	"fmt"
	"math"
	"testing"

	"github.com/discover-db/discover/stablehash"
)

// TestHLLAccuracy counts known numbers of distinct values, from ten to
// a million, as integers, reals and text; the issue asks for 2% above
// 100k distinct values, and the sketch's standard error is 0.41%.
func TestHLLAccuracy(t *testing.T) {
	sizes := []int{10, 1000, 30_000, 150_000, 1_000_000}
	kinds := map[string]func(i int) uint64{
		"int":   func(i int) uint64 { return stablehash.Number(float64(i), int64(i)) },
		"real":  func(i int) uint64 { return stablehash.Number(float64(i)+0.25, 0) },
		"email": func(i int) uint64 { return stablehash.Hash64(fmt.Sprintf("user%d@example.com", i)) },
		"code":  func(i int) uint64 { return stablehash.Hash64(fmt.Sprintf("C%07d", i)) },
	}
	for name, h := range kinds {
		for _, n := range sizes {
			s := NewHLL()
			for i := range n {
				s.Add(h(i))
				s.Add(h(i)) // repeats change nothing
			}
			est := HLLEstimate(s.Histogram())
			rel := (est - float64(n)) / float64(n)
			t.Logf("%s %d: %.0f (%+.3f%%)", name, n, est, 100*rel)
			limit := 0.02
			if n <= 1000 {
				limit = 0.01 // the empty registers count small sets almost exactly
			}
			if math.Abs(rel) > limit {
				t.Errorf("%s: %d distinct estimated at %.0f (%+.2f%%)", name, n, est, 100*rel)
			}
		}
	}
}

func TestHLLRank(t *testing.T) {
	for _, c := range []struct {
		w    uint64
		want int
	}{{1 << (HLLQ - 1), 1}, {1<<HLLQ - 1, 1}, {1, HLLQ}, {0, HLLQ + 1}, {1 << (HLLQ - 3), 3}} {
		if got := hllRank(c.w); got != c.want {
			t.Errorf("hllRank(%#x) = %d, want %d", c.w, got, c.want)
		}
	}
	// Not a histogram of HLLM registers: no estimate rather than a wrong one.
	if e := HLLEstimate(make([]int64, HLLQ+2)); !math.IsNaN(e) {
		t.Errorf("estimate of a histogram of no registers = %v, want NaN", e)
	}
	if e := HLLEstimate([]int64{HLLM}); !math.IsNaN(e) {
		t.Errorf("estimate of a short histogram = %v, want NaN", e)
	}
	empty := NewHLL()
	if e := HLLEstimate(empty.Histogram()); e != 0 {
		t.Errorf("empty sketch estimates %v, want 0", e)
	}
}
