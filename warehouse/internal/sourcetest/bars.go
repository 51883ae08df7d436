package sourcetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
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

// BarRefusals is the wall-clock bar of a guard's refusals, for an
// engine's BenchmarkBarGuard…: refuse turns down each statement of cases
// (by name) with warehouse.ErrRejected, within bar, once per iteration.
// A statement let through fails the benchmark as surely as a slow one.
func BarRefusals(b *testing.B, cases map[string]string, bar time.Duration, refuse func(sql string) error) {
	b.Helper()
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	slices.Sort(names)
	for b.Loop() {
		for _, name := range names {
			start := time.Now()
			err := refuse(cases[name])
			d := time.Since(start)
			if !errors.Is(err, warehouse.ErrRejected) {
				b.Errorf("%s: %.200v; want a refusal", name, err)
			}
			if d > bar {
				b.Errorf("%s: refused after %s, want under %s", name, d, bar)
			}
		}
	}
}
