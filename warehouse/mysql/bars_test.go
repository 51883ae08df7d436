package mysql

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
const (
	// hugeAndDeepBar is how long the guard may take to refuse any one
	// statement of hugeAndDeep.
	hugeAndDeepBar = 2 * time.Second
	// longStreamBar is how long capping longStream may take: the rest of
	// the stream is stopped on the server, not drained.
	longStreamBar = 5 * time.Second
)

// BenchmarkBarGuardHugeAndDeep: each statement of hugeAndDeep is refused
// within hugeAndDeepBar.
func BenchmarkBarGuardHugeAndDeep(b *testing.B) {
	sourcetest.BarRefusals(b, hugeAndDeep(), hugeAndDeepBar, testConfig(true, false).check)
}

// BenchmarkBarTruncateLongStream: longStream, capped at 10 rows, returns
// them within longStreamBar.
func BenchmarkBarTruncateLongStream(b *testing.B) {
	db := createDB(b, adminDB(b, ""), "db_")
	s := open(b, rootDSN(b, db))
	ctx := context.Background()
	q, opts := longStream()
	for b.Loop() {
		start := time.Now()
		res, err := s.Query(ctx, q, opts)
		d := time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Rows) != 10 || !res.Truncated {
			b.Errorf("big LIMIT: %d rows, truncated %v", len(res.Rows), res.Truncated)
		}
		if d > longStreamBar {
			b.Errorf("truncating a long stream took %s, want under %s", d, longStreamBar)
		}
	}
}

// BenchmarkBarCappedEndless: the conformance suite's endless result,
// capped, returns within sourcetest.CappedEndlessBar.
func BenchmarkBarCappedEndless(b *testing.B) {
	sourcetest.BarCappedEndless(b, conformance(b))
}
