package latency

import (
	"math"
	"time"
)

// Quantile returns the q-quantile of the samples in the window, q in [0, 1]:
// the nearest-rank quantile, that is the smallest recorded value v such that
// at least ⌈q·n⌉ of the n samples are <= v (at least one; 0.55 of 100
// samples is the 55th, as in decimal arithmetic: a q·n within q·n·2⁻⁵⁰
// of an integer counts as that integer, so q a unit in the last place
// above 0.5 of 100 samples is the 50th too), reported as the midpoint of
// v's bucket, within 0.8 % of v from 1 µs to MaxLatency.
// Quantile(0) is the minimum and Quantile(1) the maximum. q is clamped into
// [0, 1] and NaN counts as 0. An empty window answers 0.
//
// Quantile does not allocate. It sums each block of counters to find the
// octave that holds the quantile, then reads that octave's buckets.
func (t *Tracker) Quantile(q float64) time.Duration {
	d, _ := t.quantile(q)
	return d
}

// quantile is Quantile, with false for an empty window.
func (t *Tracker) quantile(q float64) (time.Duration, bool) {
	v := t.lockView()
	defer t.mu.Unlock()
	tot := v.totals()
	var n uint64
	for _, c := range tot {
		n += c
	}
	r := rank(q, n)
	if r == 0 {
		return 0, false
	}
	return v.bucketOfRank(&tot, r), true
}

// bucketOfRank returns the midpoint of the bucket that holds the r-th
// sample, r >= 1, given the window's block totals. Records may add samples
// between the totals and the reading of a block: the block then holds more,
// never fewer, and the r-th sample is still in it.
func (v *view) bucketOfRank(tot *blockTotals, r uint64) time.Duration {
	o := 0
	for ; o < numBlocks && r > tot[o]; o++ {
		r -= tot[o]
	}
	if o == numBlocks {
		return MaxLatency // the clamped bucket
	}
	c := v.block(o)
	i := 0
	for ; i < subCount-1 && r > c[i]; i++ {
		r -= c[i]
	}
	return bucketMid(o<<subBits + i)
}

// rank returns the 1-based rank of the q-quantile among n samples, 0 for none.
func rank(q float64, n uint64) uint64 {
	if n == 0 {
		return 0
	}
	if !(q > 0) { // also NaN
		return 1
	}
	return max(uint64(ceilDecimal(min(q, 1)*float64(n))), 1)
}

// ceilDecimal is ⌈x⌉ for an x that stands for a product of decimals, such
// as 0.55·100: within a few units in the last place of an integer, x is
// that integer, which float64 missed (0.55·100 is 55.000000000000007, and
// its ceiling the 56th sample).
func ceilDecimal(x float64) float64 {
	if r := math.Round(x); math.Abs(x-r) <= x*0x1p-50 {
		return r
	}
	return math.Ceil(x)
}
