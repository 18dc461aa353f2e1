package coordinator

import (
	"sync"
	"time"
)

// A read has one timer. It fires at the running round's speculation time,
// if the round may speculate, and then at the deadline; each firing ticks
// on the round's channel. One timer instead of a hedge timer plus a
// deadline context, and a wait on one channel instead of a select over
// three, took a third off the time of a read whose replicas answer at once.

// setTimer (re)arms the read's timer for at, on the running round's
// channel; speculation says whether that is the round's speculation time
// rather than the deadline.
func (r *read) setTimer(at time.Time, speculation bool) {
	r.rd.armed = speculation
	if r.timer == nil {
		r.timer = r.c.timers.Get().(*readTimer)
	}
	r.timer.arm(r.ctx, r.rd.ch, r.w, at)
}

// readTimer is a read's timer. The coordinator keeps them between reads
// (a timer and its function were two of a read's allocations), so one
// serves many reads in turn. Each arming records when it is due, and a
// firing before that is stale: it belongs to an earlier arming (of this
// read or of the read the timer served before) whose function had started
// when the timer was stopped or re-armed, and it ticks into nothing.
type readTimer struct {
	t     *time.Timer
	mu    sync.Mutex
	ctx   *readContext // the read's, nil between reads
	ticks chan<- int   // the running round's channel
	w     *waker       // the read's
	due   time.Time    // when the current arming is due
}

// arm points the timer at a read's round and sets it for at.
func (rt *readTimer) arm(ctx *readContext, ticks chan<- int, w *waker, at time.Time) {
	rt.mu.Lock()
	rt.ctx, rt.ticks, rt.w, rt.due = ctx, ticks, w, at
	rt.mu.Unlock()
	d := time.Until(at)
	if d <= 0 {
		// Due already: in a synctest bubble the runtime would run fire
		// at once on the system stack, a path where Go 1.26's race
		// detector crashed once; a nanosecond late, it runs as any other.
		d = time.Nanosecond
	}
	if rt.t == nil {
		rt.t = time.AfterFunc(d, rt.fire)
		return
	}
	rt.t.Reset(d)
}

// fire is the timer's function: at the deadline it cancels the read's
// requests; either way it wakes the read. It never blocks: a round's
// channel has room for all its requests and maxTicks ticks, so when it is
// full a tick is already waiting there, and the read, woken by that one,
// finds the context cancelled if this was the deadline.
func (rt *readTimer) fire() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	t := now()
	if rt.ctx == nil || t.Before(rt.due) {
		return // between reads, or a stale firing
	}
	rt.ctx.expireBy(t)
	select {
	case rt.ticks <- tick:
	default:
	}
	rt.w.signal()
}

// recycle stops the timer and returns it to pool, serving no read.
func (rt *readTimer) recycle(pool *sync.Pool) {
	rt.t.Stop()
	rt.mu.Lock()
	rt.ctx, rt.ticks, rt.w = nil, nil, nil
	rt.mu.Unlock()
	pool.Put(rt)
}
