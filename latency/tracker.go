package latency

import (
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/internal/stripe"
)

// Tracker counts the latencies of one table in log-linear buckets over a
// sliding window (see WithWindow), and answers quantiles over the samples of
// that window, including those recorded a moment ago.
//
// Record is lock-free and allocation-free: one atomic add, and a clock read
// on about one sample in 128. The window slides lazily: whichever Record or
// query first notices that a sub-window has ended copies the counters into a
// mark where the next sub-window starts. Nothing runs in the background, so
// an idle Tracker costs nothing and needs no Close.
//
// A Tracker is safe for concurrent use. Create it with NewTracker.
type Tracker struct {
	// stripes hold running totals since the tracker was created, wrapping at
	// 2^32; a window's counts are their sum minus the mark at its start, which
	// is exact in modular arithmetic while a bucket gets fewer than 2^32
	// samples per window.
	stripes [numStripes]stripeCounts

	clock  func() time.Time // nil: time.Since(origin), one monotonic read
	origin time.Time
	sub    time.Duration // width of a sub-window
	// Read-mostly: written once per sub-window.
	nextRotate atomic.Int64 // elapsed time at which the current sub-window ends
	epoch      atomic.Int64 // number of the current sub-window since origin

	marks [subWindows]mark
}

// Striping: goroutines on different cores add to different copies of the
// counters, so that one core's add does not have to pull the cache line from
// another core first. Queries sum the stripes.
const (
	numStripes = stripe.N
	cacheLine  = stripe.CacheLine
	// stripePad makes a stripe a whole number of cache lines.
	stripePad = (cacheLine - numBuckets*4%cacheLine) % cacheLine
)

// stripeCounts is one stripe's counters.
type stripeCounts struct {
	counts [numBuckets]atomic.Uint32
	_      [stripePad]byte
}

// clockEvery is how often Record looks at the clock: on every clockEvery-th
// sample of each bucket of each stripe. A clock read costs 20 to 200 ns on a
// virtual machine, several times the rest of Record; one in 128 keeps it
// near a nanosecond a sample. Queries look at the clock every time, so
// samples are late to notice a new sub-window only between queries.
const clockEvery = 128

// NewTracker returns an empty tracker; with no options it looks back
// DefaultWindow on the real clock.
func NewTracker(opts ...Option) *Tracker {
	c := newTrackerConfig(opts)
	t := &Tracker{clock: c.clock, sub: c.window / subWindows}
	if t.clock != nil {
		t.origin = t.clock()
	} else {
		t.origin = time.Now()
	}
	t.nextRotate.Store(int64(t.sub))
	for i := range t.marks {
		t.marks[i].epoch.Store(markUnused)
	}
	t.marks[0].epoch.Store(0) // sub-window 0 starts from zero counts
	return t
}

// Window returns how far back the tracker looks.
func (t *Tracker) Window() time.Duration { return t.sub * subWindows }

// Record counts one sample. A negative d is not a latency: it is counted in
// Snapshot.Negative and ignored otherwise. A d of MaxLatency or more counts
// as MaxLatency and in Snapshot.Clamped.
func (t *Tracker) Record(d time.Duration) {
	if t.stripe().counts[bucketOf(d)].Add(1)%clockEvery == 0 {
		t.advance()
	}
}

// stripe returns the calling goroutine's stripe (see package stripe).
func (t *Tracker) stripe() *stripeCounts { return &t.stripes[stripe.Index()] }

// elapsed returns the time since the tracker was created, by its clock.
func (t *Tracker) elapsed() time.Duration {
	if t.clock == nil {
		return time.Since(t.origin)
	}
	return t.clock().Sub(t.origin)
}
