package sourcetest

import (
	"testing"
	"time"
)

// CappedEndlessBar is how long a capped Endless result may take.
const CappedEndlessBar = 2 * time.Second

// BarCappedEndless is the wall-clock bar of the suite's MaxRows check, for
// an engine's BenchmarkBarCappedEndless: on a Source h.Open gives, h.Endless
// capped at 5 rows returns them (the same check as the suite's) within
// CappedEndlessBar, once per iteration.
func BarCappedEndless(b *testing.B, h Harness) {
	b.Helper()
	if h.Endless == "" {
		b.Fatal("the harness has no Endless statement: every engine must show that its row cap stops a result without end")
	}
	s, _ := h.Open(b)
	b.Cleanup(func() { s.Close() })
	for b.Loop() {
		start := time.Now()
		cappedEndless(b, s, h.Endless)
		if d := time.Since(start); d > CappedEndlessBar {
			b.Errorf("a capped endless result took %s, want under %s", d, CappedEndlessBar)
		}
	}
}
