package latency

import (
	"math"
	"time"
)

// Quantile returns the q-quantile of the samples in the window, q in [0, 1]:
// the nearest-rank quantile, that is the smallest recorded value v such that
// at least ⌈q·n⌉ of the n samples are <= v (at least one), reported as the
// midpoint of v's bucket, within 0.8 % of v from 1 µs to MaxLatency.
// Quantile(0) is the minimum and Quantile(1) the maximum. q is clamped into
// [0, 1] and NaN counts as 0. An empty window answers 0.
//
// Quantile does not allocate; it reads every counter once.
func (t *Tracker) Quantile(q float64) time.Duration {
	d, _ := t.quantile(q)
	return d
}

// quantile is Quantile, with false for an empty window.
func (t *Tracker) quantile(q float64) (time.Duration, bool) {
	var w counts
	t.readWindow(&w)
	var n uint64
	for _, c := range w[:clampedBucket+1] {
		n += uint64(c)
	}
	r := rank(q, n)
	if r == 0 {
		return 0, false
	}
	var seen uint64
	for i, c := range w[:clampedBucket+1] {
		if seen += uint64(c); seen >= r {
			return bucketMid(i), true
		}
	}
	return 0, false // unreachable: seen ends at n >= r
}

// rank returns the 1-based rank of the q-quantile among n samples, 0 for none.
func rank(q float64, n uint64) uint64 {
	if n == 0 {
		return 0
	}
	if !(q > 0) { // also NaN
		return 1
	}
	r := uint64(math.Ceil(min(q, 1) * float64(n)))
	return max(r, 1)
}
