package latency

import (
	"math"
	"sync/atomic"
	"time"
)

// A mark is a copy of a tracker's running counters (summed over the stripes)
// taken when a sub-window started. The window's counts are the running
// counters minus the oldest mark still inside the window.
type mark struct {
	epoch  atomic.Int64 // the sub-window this mark starts, or markUnused / markBusy
	counts [numBuckets]atomic.Uint32
}

const (
	markUnused = -2 // never written
	markBusy   = -1 // being written: not yet a consistent copy
)

// counts is one number per bucket: a sum over the stripes, or a window.
type counts [numBuckets]uint32

// advance starts a new sub-window if the clock has left the current one.
func (t *Tracker) advance() {
	if el := t.elapsed(); int64(el) >= t.nextRotate.Load() {
		t.rotate(el)
	}
}

// rotate starts the sub-window that contains el, unless another caller has
// already: the winner of the compare-and-swap on epoch copies the counters
// into the sub-window's mark. Samples recorded during the copy may land on
// either side of it.
func (t *Tracker) rotate(el time.Duration) {
	e := int64(el / t.sub)
	for {
		cur := t.epoch.Load()
		if e <= cur {
			return
		}
		if t.epoch.CompareAndSwap(cur, e) {
			break
		}
	}
	var sum counts
	t.sumStripes(&sum)
	m := &t.marks[e%subWindows]
	m.epoch.Store(markBusy)
	for i := range sum {
		m.counts[i].Store(sum[i])
	}
	m.epoch.Store(e)
	storeMax(&t.nextRotate, (e+1)*int64(t.sub))
}

// storeMax raises v to x unless it is already higher, so that a slow rotation
// cannot move nextRotate back over a later one.
func storeMax(v *atomic.Int64, x int64) {
	for old := v.Load(); old < x && !v.CompareAndSwap(old, x); old = v.Load() {
	}
}

// sumStripes adds the running counters of every stripe into c.
func (t *Tracker) sumStripes(c *counts) {
	for s := range t.stripes {
		for i := range c {
			c[i] += t.stripes[s].counts[i].Load()
		}
	}
}

// readWindow slides the window up to now and stores its counts in w. It
// retries if a rotation overwrote the mark it started from while it read.
func (t *Tracker) readWindow(w *counts) {
	for {
		base, e := t.baseline()
		if base == nil {
			*w = counts{}
			return
		}
		for i := range w {
			w[i] = -base.counts[i].Load()
		}
		t.sumStripes(w) // read after the mark, so never below it
		if base.epoch.Load() == e {
			return
		}
	}
}

// baseline returns the mark the window starts from: the oldest readable one
// inside the window, with its epoch. It returns nil when no mark inside the
// window is readable: the one just being written is the only one, so nothing
// in the window is visible yet.
func (t *Tracker) baseline() (*mark, int64) {
	t.advance()
	cur := t.epoch.Load()
	var base *mark
	oldest := int64(math.MaxInt64)
	for i := range t.marks {
		e := t.marks[i].epoch.Load()
		if e >= 0 && e > cur-subWindows && e <= cur && e < oldest {
			base, oldest = &t.marks[i], e
		}
	}
	return base, oldest
}
