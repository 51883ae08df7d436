package stablehash

import "math"

// Number hashes a number so that an integer and a real of the same value
// collide, as they are one value to COUNT(DISTINCT): f is the number, i
// the integer it was read as (0 for a real). Integers beyond 2⁵³ keep
// their own bits, which a float would round. Like Hash64 it is the same in
// every run and process.
func Number(f float64, i int64) uint64 {
	if i != 0 && (i > 1<<53 || i < -(1<<53)) {
		return mix(uint64(i)) ^ 0x5bd1e9955bd1e995
	}
	if f == 0 {
		f = 0 // -0 and 0 are one value
	}
	return mix(math.Float64bits(f))
}

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
