package latency

import (
	"math/bits"
	"runtime"
	"sync/atomic"
)

// probeEvery is how often Record checks for contention (see probe); a
// divisor of clockEvery, so that one test serves both.
const probeEvery = 64

// probe runs on every probeEvery-th add v to counter c of stripe s of set
// by the goroutine whose stack is me (the one s was picked by): it notes
// contention if another goroutine probed s last, and starts a new
// sub-window if due. A c that reached clockEvery ends the sub-window's
// quiet, unless a rotation drained c since the add: the quiet is then the
// new sub-window's, which probe's load and store would have ended with no
// sample in it (found by review). Goroutines that take turns on a stripe,
// at this rate, run on several cores and move its cache lines between
// them, or soon will.
//
// Probing stops for the rest of the sub-window after contentionCap findings:
// by then the stripes have grown and been dealt out all they can, and in a
// pool of goroutines that take turns on every stripe, probing would only
// move the stripes' and the tracker's written words between cores.
func (t *Tracker) probe(set *stripeSet, s *stripe, c *atomic.Uint32, me uintptr, v uint32) {
	if t.contention.Load() < contentionCap {
		if last := s.user.Load(); me != last {
			s.user.Store(me)
			t.contended(set, me, last)
		}
	}
	if v%clockEvery == 0 {
		if t.quiet.Load() {
			t.quiet.Store(false)
			// A rotation's drain precedes its store of quiet: if that
			// store came before ours, c holds less than v now.
			if c.Load() < v {
				t.quiet.Store(true)
			}
		}
		t.advance()
	}
}

// contentionStep is how many probes that found a stripe shared within one
// sub-window make the tracker spread its Records out: some thousands of
// Records from goroutines that share a stripe. A table whose Records come
// from one goroutine, or that records fewer than 64·64 samples in a
// sub-window (64 probes, each on a counter's 64th add), keeps one stripe.
const contentionStep = 64

// contentionCap bounds the contention a sub-window notes: at most 16 steps,
// enough to grow to 64 stripes and deal the goroutines out ten times.
const contentionCap = 16 * contentionStep

// contended notes a probe of set that found a stripe shared by the
// goroutines whose stacks are a and b.
func (t *Tracker) contended(set *stripeSet, a, b uintptr) {
	if t.contention.Add(1)%contentionStep == 0 {
		t.spread(set, a, b)
	}
}

// spread doubles the stripes, up to maxStripes; at the maximum, it deals the
// goroutines out anew with another multiplier. Either way the multiplier
// puts a and b, the goroutines last found sharing a stripe, on different
// stripes: a few long-lived goroutines stuck on one stripe come apart at
// the first step.
func (t *Tracker) spread(set *stripeSet, a, b uintptr) {
	n := len(set.stripes)
	switch {
	case n < maxStripes():
		t.grow(set, a, b)
	case n > 1:
		set.salt.Store(separating(set.salt.Load(), set.shift, a, b))
	}
}

// grow replaces set by one with twice the stripes. It never waits: if a
// query or rotation holds the tracker, the next contention step retries.
func (t *Tracker) grow(set *stripeSet, a, b uintptr) {
	if !t.mu.TryLock() {
		return
	}
	defer t.mu.Unlock()
	if t.set.Load() == set {
		next := newStripeSet(set.stripes, 2*len(set.stripes), 0)
		next.salt.Store(separating(set.salt.Load(), next.shift, a, b))
		t.set.Store(next)
	}
}

// separating returns the first multiplier after salt that puts stacks a and
// b on different stripes of a set with this shift, trying 64: each does
// with a probability of at least a half.
func separating(salt uint64, shift uint8, a, b uintptr) uint64 {
	for range 64 {
		salt = nextSalt(salt)
		if stripeOf(a, salt, shift) != stripeOf(b, salt, shift) {
			break
		}
	}
	return salt
}

// maxStripes is twice GOMAXPROCS rounded up to a power of two, or one
// stripe on one core, where Records never run at once. A goroutine's stripe
// follows its stack, not its core, and a server runs many more goroutines
// than cores: with a stripe per core, goroutines running at once often
// share one whatever the multiplier, and twice the stripes halve the odds
// that two of them do. Only a tracker whose Records contend grows them.
func maxStripes() int {
	procs := runtime.GOMAXPROCS(0)
	if procs == 1 {
		return 1
	}
	return min(2<<bits.Len(uint(procs-1)), maxStripesCap)
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
