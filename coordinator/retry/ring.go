package retry

import (
	"sync/atomic"

	"github.com/readpath/readpath/internal/stripe"
)

// ringSlots is how many slots divide a budget's window.
const ringSlots = 10

// A slot word holds the slot's lap (its epoch / ringSlots, truncated to 32
// bits) in the high half, a flag saying the slot was ever used, and a count
// of up to 2^31-1 events.
const (
	slotUsed  = 1 << 31
	countMask = slotUsed - 1
)

// ring counts events over a sliding window of ringSlots slots, one atomic
// word each, so that a slot is recycled for a new lap by one
// compare-and-swap, lazily, by the first event that finds it stale. A lap
// repeats after 2^32 windows, so counts are exact unless a slot was left
// untouched for within maxLate windows of a multiple of that long.
type ring struct {
	// newest is the latest epoch an event was counted at. An event a
	// window or more before it is late: its slot may hold a newer lap
	// any number of laps ahead, which the slot's lap alone cannot tell
	// from one long stale (a withdrawal 300 windows late reset the
	// current window's count, and interleaved with current ones let them
	// all through). Every event reads it and few write it: it has a cache
	// line of its own, apart from the counts every event writes.
	newest atomic.Uint64
	_      [stripe.CacheLine - 8]byte
	slots  [ringSlots]atomic.Uint64
}

// late reports whether epoch e is a window or more before the newest
// event counted.
func (r *ring) late(e uint64) bool {
	n := r.newest.Load()
	return n >= ringSlots && e <= n-ringSlots
}

func pack(lap uint32, n uint64) uint64 { return uint64(lap)<<32 | slotUsed | n }

// holds reports whether slot word w counts events of lap.
func holds(w uint64, lap uint32) bool { return w&slotUsed != 0 && uint32(w>>32) == lap }

// maxLate is how many laps behind its slot an event may be and still be
// refused as late, rather than take the slot as stale: callers' clocks
// disagree by far less than a window. A slot a lap at most maxLate laps
// behind is refused; one further behind is stale, however far: comparing
// laps as signed 32-bit numbers took a slot left idle for over 2^31
// windows (248 days of 10 ms windows) for one ahead, and refused every
// event in it, the floor's hedges included, for as long again.
const maxLate = 1 << 8

// ahead reports whether slot word w holds a lap a little later than lap:
// the event is late, and the slot already counts a newer window.
func ahead(w uint64, lap uint32) bool {
	d := uint32(w>>32) - lap
	return w&slotUsed != 0 && d != 0 && d <= maxLate
}

// locate returns the slot of epoch e and the lap it must hold.
func (r *ring) locate(e uint64) (*atomic.Uint64, uint32) {
	return &r.slots[e%ringSlots], uint32(e / ringSlots)
}

// add counts one event at epoch e. It returns false, counting nothing, when
// e is late, or older than the window the slot already holds.
func (r *ring) add(e uint64) bool {
	for n := r.newest.Load(); e > n; n = r.newest.Load() {
		if r.newest.CompareAndSwap(n, e) {
			break
		}
	}
	if r.late(e) {
		return false
	}
	s, lap := r.locate(e)
	if holds(s.Load(), lap) && r.kept(s, s.Add(1), lap) {
		return true // one atomic add, as the slot held lap when loaded
	}
	return r.take(s, e, lap)
}

// kept reports whether the add to slot s that returned w counted an event
// of lap, as the slot held when loaded. If a lap later took the slot in
// between, the add counted the event in that lap's window, which then held
// one too many (found by review): kept takes it back and reports false.
// It is small enough to inline into add: a call there cost a deposit 2 ns
// in 13.
func (r *ring) kept(s *atomic.Uint64, w uint64, lap uint32) bool {
	if holds(w, lap) {
		return true
	}
	r.removeFrom(s, uint32(w>>32))
	return false
}

// take counts an event at epoch e, of lap, in its slot s by
// compare-and-swap, taking the slot for lap if it holds an older one.
func (r *ring) take(s *atomic.Uint64, e uint64, lap uint32) bool {
	for {
		old := s.Load()
		switch {
		case holds(old, lap):
			if s.CompareAndSwap(old, old+1) {
				return true
			}
		case ahead(old, lap):
			return false
		case r.late(e):
			// Checked again after the load: an event more than maxLate
			// laps later, which ahead takes for a stale lap, moved newest
			// on before it took the slot; overwritten, the later window
			// lost its count, and a spent floor was granted again.
			return false
		case s.CompareAndSwap(old, pack(lap, 1)):
			return true
		}
	}
}

// remove takes back one event add counted at epoch e, unless the slot has
// moved on to another lap since (and the event with it).
func (r *ring) remove(e uint64) {
	s, lap := r.locate(e)
	r.removeFrom(s, lap)
}

// removeFrom takes back one event of lap from slot s, unless it has moved
// on to another lap.
func (r *ring) removeFrom(s *atomic.Uint64, lap uint32) {
	for {
		old := s.Load()
		if !holds(old, lap) || old&countMask == 0 || s.CompareAndSwap(old, old-1) {
			return
		}
	}
}

// sum counts the events of the window ending with epoch e: the slots of
// epochs e-ringSlots+1 .. e that still hold them.
func (r *ring) sum(e uint64) uint64 {
	var n uint64
	for i := uint64(0); i < ringSlots; i++ {
		s, lap := r.locate(e - i)
		if w := s.Load(); holds(w, lap) {
			n += w & countMask
		}
	}
	return n
}
