package statistical

import (
	"math"
)

// A HyperLogLog sketch counts the distinct values of a column that is read
// whole but cannot be kept: 2^hllP one-byte registers whatever the rows,
// with a standard error of 1.04/√2^hllP = 0.41%, so a count of a million
// distinct values lands within 2% at about five standard errors. The
// registers hold, per bucket (the hash's top hllP bits), the most leading
// zeros plus one seen in the other hllQ bits; the estimate is Ertl's
// improved raw estimator ("New cardinality estimation algorithms for
// HyperLogLog sketches", 2017), which needs no bias table from small
// counts to large ones. The SQL engines build the same registers
// themselves (Dialect.HLLRegisters) and send back only how many registers
// hold each value, so one estimator serves both.
const (
	hllP = 16
	hllM = 1 << hllP
	hllQ = 64 - hllP
)

// hll is one column's registers.
type hll struct{ reg []uint8 }

func newHLL() *hll { return &hll{reg: make([]uint8, hllM)} }

// add takes one value's 64-bit hash.
func (s *hll) add(h uint64) {
	b := h >> hllQ
	r := uint8(hllRank(h & (1<<hllQ - 1)))
	if r > s.reg[b] {
		s.reg[b] = r
	}
}

// hllRank is the register value of the low hllQ bits w: leading zeros
// among them plus one, hllQ+1 when all are zero.
func hllRank(w uint64) int {
	n := 0
	for bit := uint64(1) << (hllQ - 1); bit != 0 && w&bit == 0; bit >>= 1 {
		n++
	}
	return n + 1
}

// histogram counts the registers per value, 0 … hllQ+1.
func (s *hll) histogram() []int64 {
	c := make([]int64, hllQ+2)
	for _, r := range s.reg {
		c[r]++
	}
	return c
}

// hllEstimate estimates the distinct values from a register histogram c
// (c[k] registers hold k), NaN when c does not account for hllM registers.
func hllEstimate(c []int64) float64 {
	var all int64
	for _, n := range c {
		all += n
	}
	if len(c) != hllQ+2 || all != hllM {
		return math.NaN()
	}
	m := float64(hllM)
	z := m * hllTau(1-float64(c[hllQ+1])/m)
	for k := hllQ; k >= 1; k-- {
		z = 0.5 * (z + float64(c[k]))
	}
	z += m * hllSigma(float64(c[0])/m)
	return m * m / (2 * math.Ln2) / z
}

func hllSigma(x float64) float64 {
	if x == 1 {
		return math.Inf(1)
	}
	y, z := 1.0, x
	for {
		x *= x
		prev := z
		z += x * y
		y += y
		if z == prev {
			return z
		}
	}
}

func hllTau(x float64) float64 {
	if x == 0 || x == 1 {
		return 0
	}
	y, z := 1.0, 1-x
	for {
		x = math.Sqrt(x)
		prev := z
		y *= 0.5
		z -= (1 - x) * (1 - x) * y
		if z == prev {
			return z / 3
		}
	}
}
