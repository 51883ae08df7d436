package stablehash

import (
	"math"
	"testing"
)

// TestNumberOneValue: the numbers COUNT(DISTINCT) takes for one value hash
// alike, and integers a float would round apart stay apart.
func TestNumberOneValue(t *testing.T) {
	if Number(3, 3) != Number(3.0, 0) {
		t.Error("the integer 3 and the real 3.0 hash apart")
	}
	if Number(math.Copysign(0, -1), 0) != Number(0, 0) {
		t.Error("-0 and 0 hash apart")
	}
	big := int64(1)<<53 + 1
	if Number(float64(big), big) == Number(float64(big-1), big-1) {
		t.Error("two integers beyond 2⁵³ that round to one float hash alike")
	}
	if Number(1.5, 0) == Number(2.5, 0) {
		t.Error("1.5 and 2.5 hash alike")
	}
}
