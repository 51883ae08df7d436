package stablehash

import (
	"hash/fnv"
	"testing"
)

// TestHash64IsFNVMixed: Hash64 is FNV-1a (as hash/fnv computes it, without
// its allocation) finished by the mixer, so sketches saved by earlier runs
// keep their values.
func TestHash64IsFNVMixed(t *testing.T) {
	for _, s := range []string{"", "a", "customer_id", "héllo wörld", "1234567890123456789"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		x := h.Sum64()
		x ^= x >> 33
		x *= 0xff51afd7ed558ccd
		x ^= x >> 33
		x *= 0xc4ceb9fe1a85ec53
		x ^= x >> 33
		if got := Hash64(s); got != x {
			t.Errorf("Hash64(%q) = %#x, want %#x", s, got, x)
		}
	}
}
