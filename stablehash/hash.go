// Package stablehash hashes text to the same value in every run and
// process, for sketches whose figures must repeat on the same data.
package stablehash

// Hash64 hashes text to 64 bits the same way in every run and process,
// unlike hash/maphash, whose seed is the process's: sketches built from it
// (bottom-k samples, HyperLogLog registers) must give the same figures on
// the same data, or reports would not diff cleanly. It is FNV-1a finished
// by a 64-bit mixer (MurmurHash3's), so that every bit of the result
// depends on every byte, short values included.
func Hash64(s string) uint64 {
	const prime = 1099511628211
	x := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= prime
	}
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
