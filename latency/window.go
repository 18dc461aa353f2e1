package latency

import "time"

// parts is how many sub-windows a window is cut into. The window slides one
// sub-window at a time, so a query covers between (parts-1)/parts of the
// window and all of it: the current, partial sub-window in the stripes, and
// the parts-1 finished ones before it, packed in generations. Three parts
// keep a table's memory within a few KiB; a sample still counts for at least
// two thirds of a window.
const parts = 3

// noEpoch marks a generation that holds no sub-window.
const noEpoch = -1

// advance starts a new sub-window if the clock has left the current one and
// nobody holds the tracker; otherwise the holder, or a later caller, will.
func (t *Tracker) advance() { t.advanceTo(t.elapsed()) }

// advanceTo is advance at el, the tracker's elapsed time.
func (t *Tracker) advanceTo(el time.Duration) {
	if int64(el) < t.nextRotate.Load() || !t.mu.TryLock() {
		return
	}
	t.slideLocked(el)
	t.mu.Unlock()
}

// slideLocked makes the sub-window that contains el the current one, unless
// it already is: the counts of the sub-window that ends move into the
// generation whose sub-window has left the window. Samples added before
// anyone noticed the end of a sub-window count with that sub-window.
func (t *Tracker) slideLocked(el time.Duration) {
	e := int64(el / t.sub)
	if e <= t.epoch {
		return
	}
	g := &t.gens[t.epoch%(parts-1)]
	g.reset(t.epoch)
	if set := t.set.Load(); set != nil {
		set.drain(g)
	}
	t.epoch = e
	t.nextRotate.Store((e + 1) * int64(t.sub))
	t.contention.Store(0)
	t.quiet.Store(true)
}

// view is the window as the holder of the tracker's lock sees it.
type view struct {
	set  *stripeSet             // the current sub-window; nil before any sample
	gens [parts - 1]*generation // the finished sub-windows inside the window
	n    int                    // how many of gens are set
}

// lockView takes the tracker's lock, slides the window up to now and
// returns it. The caller unlocks t.mu; if a clock given to WithClock
// panics, lockView unlocks it before the panic goes on, or every later
// query of the tracker would wait for good.
func (t *Tracker) lockView() view {
	t.mu.Lock()
	read := false
	defer func() {
		if !read {
			t.mu.Unlock()
		}
	}()
	// Read under the lock, the clock is behind the current sub-window only
	// if it stepped back: a reading taken before the lock could precede a
	// slide another caller made meanwhile.
	if el, start := t.elapsed(), time.Duration(t.epoch)*t.sub; el < start {
		// A clock given to WithClock stepped back (a wall clock corrected):
		// go on from the start of the current sub-window, as if no time
		// had passed, or nothing would leave the window until the clock
		// came back to where it had been.
		t.skew.Add(int64(start - el))
	} else {
		t.slideLocked(el)
	}
	read = true
	v := view{set: t.set.Load()}
	for i := range t.gens {
		if g := &t.gens[i]; g.epoch != noEpoch && g.epoch > t.epoch-parts {
			v.gens[v.n] = g
			v.n++
		}
	}
	return v
}

// totals returns the samples of each block of the window, then the clamped
// ones.
func (v *view) totals() blockTotals {
	var tot blockTotals
	if v.set != nil {
		v.set.totals(&tot)
	}
	for _, g := range v.gens[:v.n] {
		g.totals(&tot)
	}
	return tot
}

// block returns the counts of block o in the window.
func (v *view) block(o int) [subCount]uint64 {
	var c [subCount]uint64
	if v.set != nil {
		v.set.addBlock(o, &c)
	}
	for _, g := range v.gens[:v.n] {
		g.addBlock(o, &c)
	}
	if blockRead != nil {
		blockRead(o)
	}
	return c
}

// blockRead, if set (by tests only), is called after each read of a block,
// as if samples were recorded then: records take no lock.
var blockRead func(o int)

// special returns the clamped (i = 0) or negative (i = 1) samples of the
// window.
func (v *view) special(i int) uint64 {
	var n uint64
	if v.set != nil {
		n = v.set.special(i)
	}
	for _, g := range v.gens[:v.n] {
		n += g.special[i]
	}
	return n
}
