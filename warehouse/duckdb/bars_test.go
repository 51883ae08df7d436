package duckdb

import (
	"context"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// The wall-clock bars of the package's tests: the tests check what
// happens and log how long it took; these benchmarks fail when it took
// longer than the bar. Run them with
//
//	go test -run '^$' -bench '^BenchmarkBar' -benchtime 1x ./warehouse/...

// guardLimitsBar is how long the guard may take to refuse any one
// statement of guardLimits.
const guardLimitsBar = 10 * time.Second

// BenchmarkBarGuardLimits: each statement of guardLimits is refused within
// guardLimitsBar.
func BenchmarkBarGuardLimits(b *testing.B) {
	s := open(b, build(b, "x.duckdb"))
	sourcetest.BarRefusals(b, guardLimits(), guardLimitsBar, func(q string) error { return s.Guard(context.Background(), q) })
}

// BenchmarkBarCappedEndless: the conformance suite's endless result,
// capped, returns within sourcetest.CappedEndlessBar, on a DuckDB file and
// on a folder of data files.
func BenchmarkBarCappedEndless(b *testing.B) {
	b.Run("file", func(b *testing.B) { sourcetest.BarCappedEndless(b, conformanceFile()) })
	b.Run("folder", func(b *testing.B) { sourcetest.BarCappedEndless(b, conformanceFolder()) })
}
