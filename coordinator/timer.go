package coordinator

import (
	"sync"
	"time"
)

// A read has one timer. It fires at the hedge threshold, if the read may
// hedge, and then at the deadline; each firing sends a tick on the first
// round's channel (see readContext.fire). One timer instead of a hedge
// timer plus a deadline context, and a wait on one channel instead of a
// select over three, took a third off the time of a read whose replicas
// answer at once.

// maxTicks is room kept on the first round's channel for the timer's
// ticks: the hedge threshold, then the deadline.
const maxTicks = 2

// firstRoundRequests bounds the requests of a read's first round: one per
// live candidate (contacts and hedge), and under digest-first a data
// request and its hedge on top of the digests.
func firstRoundRequests(r *read) int { return len(r.plan.order) + 2 }

// startTimer arms the read's timer when its first requests go out at at:
// for the hedge threshold, counted from the start of the read, when the
// read may still hedge; else for the deadline.
func (r *read) startTimer(at time.Time) {
	if r.speculate && !r.hedged {
		r.setTimer(r.threshold-at.Sub(r.start), true)
		return
	}
	r.setTimer(r.ctx.deadline.Sub(at), false)
}

// setTimer (re)arms the read's timer to fire after d; hedge says whether
// that is the hedge threshold rather than the deadline.
func (r *read) setTimer(d time.Duration, hedge bool) {
	r.hedgeArmed = hedge
	if r.timer == nil {
		r.timer = r.c.timers.Get().(*readTimer)
		r.timer.serve(r.ctx)
	}
	r.timer.reset(d)
}

// readTimer is a read's timer. The coordinator keeps them between reads
// (a timer and its function were two of a read's allocations), so one
// serves many reads in turn; the mutex makes sure it never fires into a
// read it no longer serves.
type readTimer struct {
	t   *time.Timer
	mu  sync.Mutex
	ctx *readContext // the read's, nil between reads
}

func (rt *readTimer) serve(ctx *readContext) {
	rt.mu.Lock()
	rt.ctx = ctx
	rt.mu.Unlock()
}

func (rt *readTimer) reset(d time.Duration) {
	if rt.t == nil {
		rt.t = time.AfterFunc(d, rt.fire)
		return
	}
	rt.t.Reset(d)
}

// fire is the timer's function.
func (rt *readTimer) fire() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.ctx != nil {
		rt.ctx.fire()
	}
}

// recycle stops the timer and returns it to pool once it serves no read.
func (rt *readTimer) recycle(pool *sync.Pool) {
	rt.t.Stop()
	rt.serve(nil)
	pool.Put(rt)
}

// settleTimer moves a timer still set for the hedge to the deadline: once
// the first round is over the read no longer hedges, and later phases
// watch the context, which the deadline cancels.
func (r *read) settleTimer() {
	if r.hedgeArmed {
		r.setTimer(time.Until(r.ctx.deadline), false)
	}
}
