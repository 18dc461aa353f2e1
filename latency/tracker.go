package latency

import (
	"sync"
	"sync/atomic"
	"time"
)

// Tracker counts the latencies of one table in log-linear buckets over a
// sliding window (see WithWindow), and answers quantiles over the samples of
// that window, including those recorded a moment ago.
//
// Record is lock-free and allocation-free once warmed up: one atomic add
// into the calling goroutine's stripe, and a clock read on about one sample
// in 128, and on every sample of a sub-window until a bucket has 128 of
// them, so that a quiet table's samples count from when they came. The
// window slides lazily: whichever Record or query first notices that a
// sub-window has ended packs its counts away. Nothing runs in the
// background, so an idle Tracker costs nothing and needs no Close. A
// bucket counts fewer than 2^32 samples in a window exactly (70 million a
// second into one bucket, at the default minute); past that its count
// wraps, and the window's quantiles and statistics with it.
//
// Memory: a Tracker that never recorded takes 240 bytes. For each octave its
// samples span, one that has takes 256 bytes per stripe (the current
// third's counters) and 80 to 272 bytes per packed third: 4 to 5 KiB with
// one stripe for a minute of reads that span eight octaves. It starts with
// one stripe and adds stripes only while Records contend for them, up to
// twice GOMAXPROCS rounded up to a power of two and at most 64, one on one
// core (see the package documentation).
//
// A Tracker is safe for concurrent use. Create it with NewTracker.
type Tracker struct {
	// Read by every Record, written a few times per sub-window at most.
	set        atomic.Pointer[stripeSet] // nil until the first sample
	nextRotate atomic.Int64              // elapsed time at which the current sub-window ends
	quiet      atomic.Bool               // no counter reached clockEvery in this sub-window: see Record
	early      atomic.Uint32             // samples recorded, up to earlyCap: see Threshold

	clock  func() time.Time // nil: time.Since(origin), one monotonic read
	origin time.Time
	skew   atomic.Int64  // added to the clock's elapsed time: how far it stepped back, in all (see lockView)
	sub    time.Duration // width of a sub-window

	// mu is held by queries and by rotations. Record never waits for it: the
	// Record that notices a new sub-window rotates only if mu is free, and
	// otherwise leaves the rotation to the holder or a later caller.
	mu    sync.Mutex
	epoch int64                 // the current sub-window, counted from origin
	gens  [parts - 1]generation // the finished sub-windows, by epoch modulo parts-1

	// Written by probes that find a stripe shared: far from the fields
	// every Record reads.
	contention atomic.Uint32 // in this sub-window
}

// clockEvery is how often Record looks at the clock: on every clockEvery-th
// sample of each bucket of each stripe in a sub-window. A clock read costs 20
// to 200 ns on a virtual machine, several times the rest of Record; one in
// 128 keeps it near a nanosecond a sample. Queries look at the clock every
// time, so samples are late to notice a new sub-window only between queries.
// A tracker whose buckets get fewer than clockEvery samples in a sub-window
// would never look, so until one of them has, every Record does: at most
// clockEvery clock reads per bucket and stripe in a sub-window.
const clockEvery = 128

// NewTracker returns an empty tracker; with no options it looks back
// DefaultWindow on the real clock. It allocates no counters until the first
// Record.
func NewTracker(opts ...Option) *Tracker {
	c := newTrackerConfig(opts)
	t := &Tracker{clock: c.clock, sub: c.window / parts}
	if t.clock != nil {
		t.origin = t.clock()
	} else {
		t.origin = time.Now()
	}
	t.nextRotate.Store(int64(t.sub))
	t.quiet.Store(true)
	for i := range t.gens {
		t.gens[i].epoch = noEpoch
	}
	return t
}

// Window returns how far back the tracker looks.
func (t *Tracker) Window() time.Duration { return t.sub * parts }

// Record counts one sample. A negative d is not a latency: it is counted in
// Snapshot.Negative and ignored otherwise. A d of MaxLatency or more counts
// as MaxLatency and in Snapshot.Clamped. The first sample in an octave of a
// stripe allocates that octave's counters (256 bytes).
//
// Record is one function but for rare cases: on its path a call costs about
// as much as the atomic operation.
func (t *Tracker) Record(d time.Duration) {
	if t.quiet.Load() {
		// Few samples: no probe would notice a new sub-window before a
		// query, which would pack these samples with the sub-window
		// that ended, however long ago. A clock read each is cheap here.
		t.advance()
	}
	t.record(d)
}

// RecordAt is Record for a caller that has just read the clock, as one
// timing a request has: now, a reading of the tracker's clock (time.Now
// unless WithClock), lets it notice a new sub-window on every sample at no
// cost. Record looks at the clock on one sample in 128 once the tracker is
// busy, so after a gap with no query the samples of a busy tracker went
// into the sub-window before the gap, and left the window with it, until a
// probe or a query noticed the time: a metrics scrape after an idle spell
// missed up to thousands. A now ahead of the tracker's clock (a time read
// from another clock, say) moves the window no further than the clock.
func (t *Tracker) RecordAt(d time.Duration, now time.Time) {
	if el := now.Sub(t.origin) + time.Duration(t.skew.Load()); int64(el) >= t.nextRotate.Load() {
		// A clock read about once a third for a caller that keeps the
		// contract: taken as it was, a now a year ahead made the current
		// third that year's, and nothing left the window until it came.
		t.advanceTo(min(el, t.elapsed()))
	}
	t.record(d)
}

// record counts d in the current sub-window.
func (t *Tracker) record(d time.Duration) {
	b := bucketOf(d)
	set := t.set.Load()
	if set == nil {
		set = t.firstStripe()
	}
	me := stackOf()
	s := set.pick(me)
	c := s.counter(b)
	if c == nil {
		c = s.rareCounter(b)
	}
	if v := c.Add(1); v%probeEvery == 0 {
		t.probe(set, s, c, me, v)
	}
	if b != negativeBucket && t.early.Load() < earlyCap {
		t.early.Add(1)
	}
}

// earlyCap bounds the count of early samples, which only a Threshold that
// has not yet computed its first value reads: past it, Record only loads it.
const earlyCap = 1 << 16

// recorded returns the number of samples recorded, negative ones aside, up
// to earlyCap.
func (t *Tracker) recorded() uint32 { return t.early.Load() }

// elapsed returns the time since the tracker was created, by its clock.
func (t *Tracker) elapsed() time.Duration {
	if t.clock == nil {
		return time.Since(t.origin) + time.Duration(t.skew.Load())
	}
	return t.clock().Sub(t.origin) + time.Duration(t.skew.Load())
}
