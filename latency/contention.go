package latency

import (
	"math/bits"
	"runtime"
)

// probeEvery is how often Record checks for contention (see probe); a
// divisor of clockEvery, so that one test serves both.
const probeEvery = 64

// probe runs on every probeEvery-th add v to a counter of stripe s of set:
// it notes contention if another goroutine probed s last, and starts a new
// sub-window if due. Goroutines that take turns on a stripe, at this rate,
// run on several cores and move its cache lines between them, or soon will.
//
// Probing stops for the rest of the sub-window after contentionCap findings:
// by then the stripes have grown and been dealt out all they can, and in a
// pool of goroutines that take turns on every stripe, probing would only
// move the stripes' and the tracker's written words between cores.
func (t *Tracker) probe(set *stripeSet, s *stripe, v uint32) {
	if t.contention.Load() < contentionCap {
		if me := stackOf(); s.user.Load() != me {
			s.user.Store(me)
			t.contended(set)
		}
	}
	if v%clockEvery == 0 {
		t.advance()
	}
}

// contentionStep is how many probes that found a stripe shared within one
// sub-window make the tracker spread its Records out: some thousands of
// Records from goroutines that share a stripe. A table whose Records come
// from one goroutine, or that counts fewer than 64·64 samples of a bucket
// in a sub-window, keeps one stripe.
const contentionStep = 64

// contentionCap bounds the contention a sub-window notes: at most 16 steps,
// enough to grow to 64 stripes and deal the goroutines out ten times.
const contentionCap = 16 * contentionStep

// contended notes a probe of set that found a stripe shared.
func (t *Tracker) contended(set *stripeSet) {
	if t.contention.Add(1)%contentionStep == 0 {
		t.spread(set)
	}
}

// spread doubles the stripes, up to maxStripes; at the maximum, goroutines
// that still collide are dealt out anew with another multiplier, which
// separates a few long-lived goroutines stuck on one stripe. It never waits:
// if a query or rotation holds the tracker, the next contention step retries.
func (t *Tracker) spread(set *stripeSet) {
	n := len(set.stripes)
	if n >= maxStripes() {
		set.salt.Store(nextSalt(set.salt.Load()))
		return
	}
	if !t.mu.TryLock() {
		return
	}
	defer t.mu.Unlock()
	if t.set.Load() == set {
		t.set.Store(newStripeSet(set.stripes, 2*n, nextSalt(set.salt.Load())))
	}
}

// maxStripes is GOMAXPROCS rounded up to a power of two: enough for every
// core to add to its own stripe once the multiplier separates them.
func maxStripes() int {
	return min(1<<bits.Len(uint(runtime.GOMAXPROCS(0)-1)), maxStripesCap)
}

// maxStripesCap bounds the memory of a tracker on a large machine: beyond
// it, cores share stripes.
const maxStripesCap = 64

// nextSalt returns another odd multiplier, by a step of SplitMix64.
func nextSalt(s uint64) uint64 {
	z := s + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return (z ^ z>>31) | 1
}
