package statistical

import (
	"fmt"
	"math"
	"testing"
)

// A column with more distinct values than the pass counts exactly keeps
// one hash a row; finish reads the distinct count, the values held by
// one row and the repeated values off the sorted hashes, then drops them.
// The figures are those of counting the values themselves: here 70,000
// distinct texts over 100,000 rows, the first 30,000 twice, and one blank
// value (a placeholder, not counted among the repeated ones) 500 times.
func TestFinishDropsTheHashLog(t *testing.T) {
	a := &colAcc{spec: colSpec{Name: "code", Missing: true}, lenMin: math.MaxInt64, expect: 100_500}
	var today civil
	for i := range 70_000 {
		a.add(fmt.Sprintf("code-%06d", i), today)
	}
	for i := range 30_000 {
		a.add(fmt.Sprintf("code-%06d", i), today)
	}
	for range 500 {
		a.add(" ", today)
	}
	if !a.overflow || len(a.log) != 100_500 {
		t.Fatalf("overflow %v with %d hashes: want the exact count given up and one hash a row", a.overflow, len(a.log))
	}
	var scratch []uint64
	a.finish(&scratch)
	if a.log != nil {
		t.Errorf("the hash log (%d hashes) is kept after finish", len(a.log))
	}
	if got := a.distinctCount(); got != 70_001 {
		t.Errorf("distinct %d, want 70,001", got)
	}
	if got := a.singletons(); got != 40_000 {
		t.Errorf("values held by one row %d, want 40,000", got)
	}
	if n, _, known := a.dups(); n != 30_000 || known {
		t.Errorf("repeated values %d (known %v), want 30,000, not known by value", n, known)
	}
	if cap(scratch) < 100_500 {
		t.Errorf("the sort used no shared buffer (cap %d)", cap(scratch))
	}
}

// The weight a streamed profile holds: a pass's hash logs (8 bytes a row
// and column) and every measure's numbers (16), never more than the
// whole budget, so that one table too big for it still runs, alone.
func TestStreamWeight(t *testing.T) {
	specs := []colSpec{{Name: "id"}, {Name: "a", Measure: true}, {Name: "b", Measure: true}, {Name: "c"}}
	if got, want := streamWeight(specs, 4, 1000), int64(1000*(8*4+16*2)); got != want {
		t.Errorf("weight %d, want %d", got, want)
	}
	if got, want := streamWeight(specs, 2, 1000), int64(1000*(8*2+16*2)); got != want {
		t.Errorf("two columns a pass: weight %d, want %d", got, want)
	}
	if got := streamWeight(specs, 4, 1<<40); got != streamBudget {
		t.Errorf("a huge table weighs %d, want the whole budget %d", got, streamBudget)
	}
}
