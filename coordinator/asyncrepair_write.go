package coordinator

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/readpath/readpath/replica"
)

// An ASYNC repair's Apply runs on a goroutine of its own, which its worker
// waits for. On the worker, a replica that ignored its context held it,
// and every repair queued behind it, of every replica and table, for as
// long as it hung. The worker gives up on an Apply that has not returned a
// read timeout after its context ended (at the read timeout, or at Close):
// a replica that heeds its context has returned by then. The repair is
// counted abandoned, and the write counts against its replica's backlog
// (MaxAbandonedPerReplica) until the replica returns from it, as a
// request a read gave up on does. Until then the queue drops its other
// repairs to that replica (see repairQueue.hung): a replica that hangs
// holds the workers that took its writes before the first was given up,
// once, not again for each repair it is sent.
//
// A replica that heeds its context but whose writes stall (its write path
// blocked, behind an RPC that passes the deadline on) returns each at its
// deadline: it held a worker a read timeout for every repair it was sent,
// for as long as it stalled, and its repairs filled the queue, where those
// of healthy replicas waited behind them or were dropped. Once a write to
// a replica returns at its deadline or after, failed or not, the queue
// drops that replica's repairs (see RepairTimingOutError) while a write to
// it is running and for a read timeout after the last one ended, then
// sends the next as a probe: the replica holds one worker at most half the
// time, and the first write it returns in time ends this.

// RepairTimingOutError is the reason, in its RepairEvent, that an ASYNC
// repair was dropped: a recent repair write to its replica returned at its
// deadline (see Config.ReadTimeout) or after, and the replica is sent one
// write at a time, each a read timeout after the last ended, until one
// returns in time. It is not modified once made and is safe for concurrent
// reads.
type RepairTimingOutError struct{ Endpoint replica.Endpoint }

func (e *RepairTimingOutError) Error() string {
	return fmt.Sprintf("coordinator: repair to %s not sent: a repair write to it timed out just now", e.Endpoint.ID)
}

// claimWrite counts a write to cand's replica as running, unless its last
// write returned at its deadline or after and another is running or that
// ended less than a read timeout before now (a snitchClock.Nanos), or its
// last took half a read timeout or more and another is running (see
// RepairSlowError); it returns why not. A write claimed alone forgets a
// slow write that ended a read timeout or more before now (see
// forgetSlow).
func (q *repairQueue) claimWrite(cand *candidate, now int64) error {
	sc := cand.score
	for {
		n := sc.asyncWrites.Load()
		if at := sc.asyncTimedOut.Load(); at != 0 && (n > 0 || now-at < int64(q.c.cfg.ReadTimeout)) {
			return &RepairTimingOutError{Endpoint: cand.ep}
		}
		if took := sc.asyncSlow.Load(); took != 0 && n > 0 {
			return &RepairSlowError{Endpoint: cand.ep, Took: time.Duration(took), Timeout: q.c.cfg.ReadTimeout}
		}
		if sc.asyncWrites.CompareAndSwap(n, n+1) {
			if n == 0 {
				q.forgetSlow(sc, now)
			}
			return nil
		}
	}
}

// forgetSlow forgets sc's last slow write if it ended a read timeout or
// more before now, for a write claimed while none ran: the replica has
// written nothing since, and a replica that took half the timeout once,
// an hour before an outage say, then answered its repairs in time, had
// every repair dropped that came while its first write after it ran. A
// replica still slow serializes its writes again once this one ends. The
// end time is loaded last (endWrite stores it first), and the swap keeps
// a slow write that ended since.
func (q *repairQueue) forgetSlow(sc *score, now int64) {
	if took := sc.asyncSlow.Load(); took != 0 && now-sc.asyncSlowAt.Load() >= int64(q.c.cfg.ReadTimeout) {
		sc.asyncSlow.CompareAndSwap(took, 0)
	}
}

// endWrite books the end of a write claimWrite counted: whether Apply
// returned at its deadline or after, failed or not (a replica that ignores
// its context and acknowledges each write a little late holds a worker as
// long as one that fails at the deadline), unless it was given up on (the
// hung set answers for it until it returns, and end then) or ended by
// Close, which says nothing of the replica.
func (q *repairQueue) endWrite(sc *score, returned, late bool, took time.Duration) {
	if returned && q.ctx.Err() == nil {
		if late {
			timingOutFromNow(sc)
		} else {
			sc.asyncTimedOut.Store(0)
		}
		slow := slowWrite(took, q.c.cfg.ReadTimeout)
		if slow != 0 {
			sc.asyncSlowAt.Store(snitchClock.Nanos(time.Now())) // before asyncSlow: see forgetSlow
		}
		sc.asyncSlow.Store(int64(slow))
	}
	sc.asyncWrites.Add(-1)
}

// timingOutFromNow marks sc's replica timing out from now (see claimWrite).
func timingOutFromNow(sc *score) { sc.asyncTimedOut.Store(max(snitchClock.Nanos(time.Now()), 1)) }

// asyncWrite is one ASYNC repair's Apply, shared by its worker and the
// goroutine running it.
type asyncWrite struct {
	done chan struct{} // closed when Apply returned
	q    *repairQueue
	sc   *score

	mu        sync.Mutex
	returned  bool
	abandoned bool // the worker gave up on it
	err       error
	took      time.Duration
}

// startWrite starts j's Apply with ctx on a goroutine of its own, which
// takes the caller's profiler labels.
func (q *repairQueue) startWrite(ctx context.Context, j repairJob, sent time.Time) *asyncWrite {
	w := &asyncWrite{done: make(chan struct{}), q: q, sc: j.s.cand.score}
	go w.run(ctx, j, sent)
	return w
}

// run applies j. A replica whose Apply calls runtime.Goexit fails, as one
// that panics does.
func (w *asyncWrite) run(ctx context.Context, j repairJob, sent time.Time) {
	err := error(&PanicError{Endpoint: j.s.cand.ep, Value: errGoexit}) // unless Apply returns
	defer func() { w.end(j.s.cand, err, time.Since(sent)) }()
	err = w.q.c.safeApply(ctx, j.s.cand, replica.Mutation{Table: j.t.name, Partition: j.s.diff})
}

// end books Apply's return. The worker reports the outcome of a write it
// waited for; one it gave up on is reported here, leaves its replica's
// backlog, and leaves the replica timing out (see claimWrite): a replica
// that answered each write just after its worker gave up on it held every
// worker for two read timeouts at a time, for as long as it was slow.
func (w *asyncWrite) end(cand candidate, err error, took time.Duration) {
	w.mu.Lock()
	w.returned, w.err, w.took = true, err, took
	abandoned := w.abandoned
	w.mu.Unlock()
	close(w.done)
	if abandoned {
		if w.q.ctx.Err() == nil { // it ran past its deadline
			timingOutFromNow(w.sc)
		}
		w.q.setHung(w.sc, -1)
		w.sc.abandoned.Add(-1)
		w.q.reportWrite(&cand, err, took)
	}
}

// await waits for the write's Apply to return, and gives up on it grace
// after ctx ended; it reports whether Apply returned. A write given up on
// counts against its replica's backlog until it returns.
func (w *asyncWrite) await(ctx context.Context, grace time.Duration) bool {
	select {
	case <-w.done:
		return true
	case <-ctx.Done():
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-w.done:
		return true
	case <-t.C:
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.returned {
		return true
	}
	w.abandoned = true // under mu: end, which undoes what follows, sees it after this
	w.sc.abandoned.Add(1)
	w.q.setHung(w.sc, 1)
	return false
}

// setHung adds d to sc's ASYNC writes given up on and not returned.
func (q *repairQueue) setHung(sc *score, d int) {
	q.running.Lock()
	defer q.running.Unlock()
	if q.hung[sc] += d; q.hung[sc] == 0 {
		delete(q.hung, sc)
	}
}

// hangs returns, if sc's replica holds an ASYNC write given up on, the
// requests abandoned to it, which count every such write (asyncWrite.await
// counts one before it is hung, end uncounts it after), else 0.
func (q *repairQueue) hangs(sc *score) int64 {
	q.running.Lock()
	defer q.running.Unlock()
	if q.hung[sc] == 0 {
		return 0
	}
	return max(sc.abandoned.Load(), int64(q.hung[sc]))
}
