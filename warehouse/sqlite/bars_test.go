package sqlite

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

// hugeAndDeepBar is how long the guard may take to refuse any one
// statement of hugeAndDeep.
const hugeAndDeepBar = 5 * time.Second

// BenchmarkBarGuardHugeAndDeep: each statement of hugeAndDeep is refused
// within hugeAndDeepBar.
func BenchmarkBarGuardHugeAndDeep(b *testing.B) {
	s := open(b, build(b, "guard.db", guardFixture...))
	cases := map[string]string{}
	for _, c := range hugeAndDeep() {
		cases[c.name] = c.sql
	}
	sourcetest.BarRefusals(b, cases, hugeAndDeepBar, func(q string) error { return s.Guard(context.Background(), q) })
}

// BenchmarkBarCappedEndless: the conformance suite's endless result,
// capped, returns within sourcetest.CappedEndlessBar.
func BenchmarkBarCappedEndless(b *testing.B) {
	sourcetest.BarCappedEndless(b, conformance())
}
