package coordinator

import (
	"context"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// repairJob is one repair write waiting in the ASYNC queue.
type repairJob struct {
	t   *table
	key string
	s   staleReplica
	// labels is the context of the read whose repair it is: the worker
	// runs it under that read's profiler labels, as a request worker does,
	// the write carries its values, and a ContextObserver is given it.
	labels context.Context
}

// repairQueue applies repair writes in the background: a bounded queue and
// a few workers, started by the first job and stopped by Close. A job that
// finds the queue full is dropped and counted; reads never wait for it.
type repairQueue struct {
	c    *Coordinator
	jobs chan repairJob // made by the first job (see startWorkers)
	// published is jobs, once made, for Metrics, which must not wait on
	// start to read it.
	published atomic.Pointer[chan repairJob]
	ctx       context.Context
	cancel    context.CancelFunc
	start     sync.Once
	mu        sync.RWMutex // guards closed against enqueue; never held across a wait
	closed    bool

	// Workers still running, how many of them are in a hook (see
	// enterHook), and a channel signalled when every one still running
	// is; a worker in a replica's Apply that ignores its context is
	// abandoned by Close.
	running   sync.Mutex
	live      int
	inHooks   int
	settled   chan struct{}  // capacity 1: a signal, not a count
	applying  map[*table]int // jobs in hand (see take), by table; none at 0
	abandoned bool           // Close gave up on them
	// hung counts, by replica, the writes given up on that it has not
	// returned from (see asyncWrite); none at 0.
	hung map[*score]int
	// pending counts the jobs queued and not yet booked, and idle is
	// closed whenever it is 0 (see DrainRepairs).
	pending int
	idle    chan struct{}
}

func (q *repairQueue) init(c *Coordinator) {
	q.c = c
	q.ctx, q.cancel = context.WithCancel(context.Background())
	q.settled = make(chan struct{}, 1)
	q.applying = map[*table]int{}
	q.hung = map[*score]int{}
	q.idle = make(chan struct{})
	close(q.idle)
}

// enqueue queues a job without blocking, or counts it dropped and reports
// false: its caller tells the Observer (observeDrop) once every job it
// has is booked, and after the lock, as an Observer told of the drop may
// call Close, which takes it.
func (q *repairQueue) enqueue(j repairJob) bool {
	queued, admitted := q.tryEnqueue(j)
	if queued {
		return true
	}
	q.countDrop(j)
	if admitted { // its end booked after its count, as settle books it
		q.finishing()
	}
	return false
}

// tryEnqueue queues j without blocking, and reports whether it did, and
// whether it counted j pending (see admit), which a full queue leaves to
// its caller to book.
func (q *repairQueue) tryEnqueue(j repairJob) (queued, admitted bool) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return false, false
	}
	q.start.Do(q.startWorkers)
	q.admit() // before a worker can take and book it
	select {
	case q.jobs <- j:
		return true, true
	default:
		return false, true
	}
}

// dropTaken is drop on a worker, which tells the Observer in a hook; why
// is the reason it gives, if any.
func (q *repairQueue) dropTaken(j repairJob, why error) {
	q.countDrop(j)
	q.finishing()
	q.enterHook()
	defer q.leaveHook()
	q.observeDrop(j, why)
}

func (q *repairQueue) countDrop(j repairJob) {
	q.c.countRepairs(j.t, 1, func(m *counters) *atomic.Int64 { return &m.repairsDropped })
}

func (q *repairQueue) observeDrop(j repairJob, why error) {
	q.c.observeRepair(j.labels, RepairEvent{Table: j.t.name, Key: j.key, To: j.s.cand.ep, Mode: repair.Async,
		Mutation: j.s.diff, Err: why, Dropped: true})
}

// startWorkers makes the queue and starts its workers. The queue is made
// here, not by init: its buffer is 304 KiB at the default capacity, which
// every coordinator would hold, even one that never repairs in the
// background (BLOCKING is the default).
func (q *repairQueue) startWorkers() {
	q.jobs = make(chan repairJob, q.c.cfg.RepairQueue)
	q.published.Store(&q.jobs)
	q.running.Lock()
	q.live = q.c.cfg.RepairWorkers
	q.running.Unlock()
	for range q.c.cfg.RepairWorkers {
		go q.work()
	}
}

// work applies queued jobs until Close. A goroutine that a hook ends
// (see resumeWork) is replaced.
func (q *repairQueue) work() {
	var h inHand
	defer q.resumeWork(&h)
	q.workOn(&h)
	h.returned = true
}

// workOn is work's loop. It checks for Close before it takes a job: one
// that Close did not wait for, in a hook, must not take and count a job
// after Close returned. A job it takes is in hand (see take) until booked.
func (q *repairQueue) workOn(h *inHand) {
	for q.ctx.Err() == nil {
		select {
		case <-q.ctx.Done():
			return
		case j := <-q.jobs:
			late, ok := q.take(j)
			if !ok { // Close has begun: a queued job is dropped, not applied
				q.dropTaken(j, nil)
				return
			}
			h.hold(j, late)
			var n int64 // the backlog's count of abandoned requests, if it drops j
			gone := q.gone(&j.s.cand)
			h.release()
			switch {
			case q.c.isDropped(j.t):
				q.dropHeld(j, late, ErrTableDropped)
			case gone:
				q.dropHeld(j, late, nil)
			case q.ctx.Err() != nil: // Close began while the Liveness view was asked
				q.dropHeld(j, late, nil)
			case q.backlogged(j.s.cand.score, &n):
				q.dropHeld(j, late, &BacklogError{Endpoint: j.s.cand.ep, Abandoned: n})
			default:
				if err := q.claimWrite(&j.s.cand, snitchClock.Nanos(time.Now())); err != nil {
					q.dropHeld(j, late, err)
				} else {
					q.apply(j, late)
				}
			}
		}
	}
}

// take counts j in hand, unless Close has begun. From then on Close, if it
// gives up on the workers, counts j abandoned, though it is yet to be
// applied: it returns with every repair booked. late says Close had given
// up before (see settle).
func (q *repairQueue) take(j repairJob) (late, ok bool) {
	q.running.Lock()
	defer q.running.Unlock()
	if q.ctx.Err() != nil {
		return false, false
	}
	q.applying[j.t]++
	return q.abandoned, true
}

// backlogged reports whether sc's replica is at MaxAbandonedPerReplica or
// holds an ASYNC write given up on (see asyncWrite), and sets *n to the
// requests abandoned to it then, for its BacklogError: the cap or more, or
// at least the writes given up on. (Loaded again after, it was below the
// cap, or 0, when some returned in between.)
func (q *repairQueue) backlogged(sc *score, n *int64) bool {
	var full bool
	if *n, full = q.c.backlogged(sc); full {
		return true
	}
	*n = q.hangs(sc)
	return *n > 0
}

// dropHeld drops a job in hand, and tells the Observer, unless Close
// counted it.
func (q *repairQueue) dropHeld(j repairJob, late bool, why error) {
	if q.settle(j, late, endDropped, nil) {
		return
	}
	q.enterHook()
	defer q.leaveHook()
	q.observeDrop(j, why)
}

// gone reports whether a queued repair's replica may no longer be written
// to: ForgetReplica forgot it since the read that queued the repair (its
// score is gone, or a later read made a new one), or the liveness view now
// reports it down (a convicted replica is never repaired). A liveness view
// that panics, here on a worker where no caller could recover the panic,
// vouches for nothing: the panic is logged and the repair dropped.
func (q *repairQueue) gone(cand *candidate) (gone bool) {
	if v, ok := q.c.snitch.scores.Load(cand.ep.ID); !ok || v.(*score) != cand.score {
		return true
	}
	l := q.c.cfg.Liveness
	if l == nil {
		return false
	}
	defer func() {
		if v := recover(); v != nil {
			gone = true
			q.c.logHookPanic("Liveness.IsAlive", v)
		}
	}()
	return !l.IsAlive(cand.ep)
}

// exit books a worker's end.
func (q *repairQueue) exit() {
	q.running.Lock()
	defer q.running.Unlock()
	q.live--
	q.signalSettled()
}

// enterHook books that a worker calls the embedder's Observer or outcome
// reporter, with nothing of its job left to count; leaveHook that it
// returned. Close does not wait for a worker in a hook: the hook may be
// the one calling Close, and its worker can only exit after Close
// returns.
func (q *repairQueue) enterHook() {
	q.running.Lock()
	defer q.running.Unlock()
	q.inHooks++
	q.signalSettled()
}

func (q *repairQueue) leaveHook() {
	q.running.Lock()
	q.inHooks--
	q.running.Unlock()
}

// signalSettled, with running held, tells awaitWorkers when every worker
// still running is in a hook.
func (q *repairQueue) signalSettled() {
	if q.live == q.inHooks {
		select {
		case q.settled <- struct{}{}:
		default: // a signal is waiting already
		}
	}
}

// apply writes one repair in hand, bounded by the read timeout, and gives
// up on a replica that has not returned a read timeout after that (see
// asyncWrite). A repair still in hand when Close gave up on it was counted
// as abandoned there.
func (q *repairQueue) apply(j repairJob, late bool) {
	// The write carries the read's context values (a tracer's span, which
	// a transport passes on, and the profiler labels), not its end: the
	// read has returned. Close ends it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(j.labels), q.c.cfg.ReadTimeout)
	defer cancel()
	defer context.AfterFunc(q.ctx, cancel)()
	if q.ctx.Err() != nil {
		cancel() // at once, not on AfterFunc's goroutine
	}
	// A worker would otherwise keep, in CPU profiles, the labels of the
	// read that started it (see workers.go): take this repair's read's,
	// which the write's goroutine takes from it.
	pprof.SetGoroutineLabels(j.labels)
	sent := time.Now()
	w := q.startWrite(ctx, j, sent)
	returned := w.await(ctx, q.c.cfg.ReadTimeout)
	deadline, _ := ctx.Deadline()
	var took time.Duration
	if returned {
		took = w.took // set once it returned
	}
	q.endWrite(j.s.cand.score, returned, returned && !sent.Add(took).Before(deadline), took)
	if !returned {
		q.settle(j, late, endAbandoned, nil) // the write's goroutine reports its outcome when it returns
		return
	}
	byClose := q.settle(j, late, endApplied, w.err)
	// The hooks come last, with the repair counted (see enterHook).
	q.enterHook()
	defer q.leaveHook()
	// as a BLOCKING repair's write tells it (call.report)
	q.reportWrite(&j.s.cand, w.err, w.took)
	if !byClose {
		q.c.observeRepair(j.labels, RepairEvent{Table: j.t.name, Key: j.key, To: j.s.cand.ep, Mode: repair.Async,
			Mutation: j.s.diff, Err: w.err, Sent: sent, Took: w.took})
	}
}

// reportWrite tells the outcome reporter how an ASYNC write to cand ended,
// unless ForgetReplica has forgotten cand's replica since the read that
// queued it: the write, which ForgetReplica lets finish, fails once the
// departed node's connection is closed, and told of that a failure
// detector that had forgotten the node too (ring.Detector.Forget) tracked
// it again, convicted, and probed its closed connection for as long as it
// ran. A repair write is no read in flight the embedder could wait for.
func (q *repairQueue) reportWrite(cand *candidate, err error, took time.Duration) {
	if cand.score.forgotten.Load() {
		return
	}
	q.c.reportOutcome(replica.Outcome{Replica: cand.r, Endpoint: cand.ep, Err: err, Latency: took})
}

// close stops the workers, cancelling writes in flight, and drops what is
// still queued, counted; it returns the dropped jobs, for observeDrops. It
// waits for the workers at most the read timeout: a replica whose Apply
// ignores its context keeps its worker, which Close abandons to it (as a
// read abandons a request that hangs) and counts.
func (q *repairQueue) close() []repairJob {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cancel()
	q.awaitWorkers()
	var dropped []repairJob
	for {
		select {
		case j := <-q.jobs:
			q.countDrop(j)
			q.finishing()
			dropped = append(dropped, j)
		default:
			return dropped
		}
	}
}

// observeDrops tells the Observer of the jobs dropped: by close, or by a
// full queue (see enqueueRepairs).
func (q *repairQueue) observeDrops(dropped []repairJob) {
	for _, j := range dropped {
		q.observeDrop(j, nil)
	}
}

// awaitWorkers waits until the workers exit or are in a hook (see
// enterHook), or the read timeout passes.
func (q *repairQueue) awaitWorkers() {
	if q.isSettled() {
		return
	}
	t := time.NewTimer(q.c.cfg.ReadTimeout)
	defer t.Stop()
	for !q.isSettled() {
		select {
		case <-q.settled:
		case <-t.C:
			q.abandon()
			return
		}
	}
}

// isSettled reports whether every worker still running is in a hook.
func (q *repairQueue) isSettled() bool {
	q.running.Lock()
	defer q.running.Unlock()
	return q.live == q.inHooks
}

// abandon gives up on the workers still holding a job, most in a
// replica's Apply, and counts their repairs abandoned.
func (q *repairQueue) abandon() {
	q.running.Lock()
	defer q.running.Unlock()
	q.abandoned = true
	for t, n := range q.applying {
		q.c.countRepairs(t, int64(n), func(m *counters) *atomic.Int64 { return &m.repairsAbandoned })
		q.finished(n)
	}
}

// How a job in hand ended.
type ending uint8

const (
	endApplied   ending = iota // Apply returned, with the error given
	endAbandoned               // its worker gave up on Apply
	endDropped                 // never applied
)

// settle books how a job in hand ended, unless Close counted it abandoned
// (late: Close had given up before it was taken, so did not); it reports
// whether Close did. The job is counted before its end is booked in the
// count DrainRepairs waits on (as abandon counts), so that DrainRepairs
// returns with it counted.
func (q *repairQueue) settle(j repairJob, late bool, e ending, err error) (byClose bool) {
	q.running.Lock()
	defer q.running.Unlock()
	// Delete a table's entry at 0: it would keep a dropped table, trackers
	// and all, reachable for as long as the coordinator runs.
	if q.applying[j.t]--; q.applying[j.t] == 0 {
		delete(q.applying, j.t)
	}
	if byClose = q.abandoned && !late; byClose {
		return true
	}
	switch e {
	case endDropped:
		q.countDrop(j)
	case endAbandoned:
		q.c.countRepairs(j.t, 1, func(m *counters) *atomic.Int64 { return &m.repairsAbandoned })
	default:
		q.c.bookRepair(j.t, err)
	}
	q.finished(1)
	return false
}

// queued is how many jobs wait in the queue for a worker.
func (q *repairQueue) queued() int {
	if jobs := q.published.Load(); jobs != nil {
		return len(*jobs)
	}
	return 0
}
