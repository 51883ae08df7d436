package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
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
	ctx := context.Background()
	cases := hugeAndDeep()
	for b.Loop() {
		for _, c := range cases {
			start := time.Now()
			err := s.Guard(ctx, c.sql)
			took := time.Since(start)
			if !errors.Is(err, warehouse.ErrRejected) {
				b.Errorf("%s: %v; want a refusal", c.name, err)
			}
			if took > hugeAndDeepBar {
				b.Errorf("%s: refused after %s, want under %s", c.name, took, hugeAndDeepBar)
			}
		}
	}
}

// BenchmarkBarCappedEndless: the conformance suite's endless result,
// capped, returns within sourcetest.CappedEndlessBar.
func BenchmarkBarCappedEndless(b *testing.B) {
	sourcetest.BarCappedEndless(b, conformance())
}
