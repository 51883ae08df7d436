package postgres

import (
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse/internal/sourcetest"
)

// The wall-clock bars of the package's tests: the tests check what
// happens and log how long it took; these benchmarks fail when it took
// longer than the bar. Run them with
//
//	go test -run '^$' -bench '^BenchmarkBar' -benchtime 1x ./warehouse/...

// hugeInputsBar is how long the guard may take to refuse any one input of
// hugeInputs.
const hugeInputsBar = 10 * time.Second

// BenchmarkBarGuardHugeInputs: each input of hugeInputs is refused within
// hugeInputsBar.
func BenchmarkBarGuardHugeInputs(b *testing.B) {
	sourcetest.BarRefusals(b, hugeInputs(), hugeInputsBar, fixedGuard)
}

// BenchmarkBarCappedEndless: the conformance suite's endless result,
// capped, returns within sourcetest.CappedEndlessBar.
func BenchmarkBarCappedEndless(b *testing.B) {
	sourcetest.BarCappedEndless(b, conformance())
}
