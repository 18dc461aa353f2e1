package coordinator

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/internal/typednil"
	"github.com/readpath/readpath/replica"
)

// call is one request to a replica, shared by the read and the worker
// that runs it. The worker writes the answer into it and then sends its
// index on the phase's channel, which hands it over to the read. Both let
// go of it when done with it (dropByRead, dropByWorker), and the last one
// recycles it: a loser still running when the read returns writes here and
// nowhere else.
type call struct {
	holders  atomic.Int32 // the read and the worker, until each drops it
	started  atomic.Bool  // a worker has taken it up
	returned atomic.Bool  // the replica returned from it (set before the answer is handed over)
	state    atomic.Int32 // callScored after returned, callMoved once adopted (see adoptInto)
	counted  atomic.Bool  // dropByRead counted it abandoned
	overdue  atomic.Bool  // dropByRead counted it overdue (see score.overdue)
	// lateAfter is twice its read's slowest answer, in nanoseconds, told
	// it as the read ended on its own (read.cancelRequests), or 0: a
	// request cancelled after that long unanswered is late by its peers'
	// measure (see score.late).
	lateAfter atomic.Int64

	c    *Coordinator
	ctx  context.Context
	ch   chan int                // the round's channel: room for all its requests
	w    *waker                  // the read's
	out  replica.OutcomeReporter // nil: nobody is told
	cand candidate
	cmd  replica.Command
	sent time.Time
	seq  int64 // its number among its replica's requests (see score.sent)
	idx  int
	// digestData asks a data read to digest its answer, here rather than
	// on the read's goroutine, when the read will compare digests.
	digestData bool
	mutation   bool // a repair write of part, not a read
	// callers says its read's deadline is the caller's, sooner than the
	// read timeout (see read.callers).
	callers bool
	// oneRow says the table has no clustering columns
	// (TableOptions.NoClusteringColumns): an answer's row has none.
	oneRow bool
	// moved is the channel of a later round of its read that adopted it.
	moved chan int
	// probeAt is when its read claimed the probe it is (see score.expire),
	// or 0: a probe that its read's caller cancelled before it told
	// anything is released.
	probeAt int64

	// For a repair write, its mutation; for a read, the data answer.
	part       replica.Partition
	digest     digest.Digest // a digest answer's; a data answer's if digestData
	tombstones int           // how many the replica's scan met
	err        error
	at         time.Time // when the answer arrived
}

// newCall returns a zero call, held by the read and its worker. Calls are
// recycled (Coordinator.calls): two of them were half the bytes a QUORUM
// read allocated.
func (c *Coordinator) newCall() *call {
	k := c.calls.Get().(*call)
	k.holders.Store(2)
	return k
}

// dropByRead lets go of k for its read. A call whose replica has not
// returned from it is abandoned, and until the replica does it counts
// against the replica's backlog (see BacklogError). That is decided by
// returned, not by whether the worker still holds k: a worker holds an
// answered call for a moment after handing its answer over, and counting
// that as abandoned refused requests to healthy replicas under a small
// MaxAbandonedPerReplica. The count is made before the hold is dropped,
// so that a worker dropping k last sees counted. A read request given up
// at the read's deadline is overdue until the replica returns from it (see
// score.overdue), at a caller's deadline sooner than the read timeout only
// if it is late by the replica's measure (score.late). That is decided by
// scored: a replica that has returned but whose answer is still being
// checked has not yet been scored, and a read that let go of it then saw
// it neither missing nor overdue.
func (k *call) dropByRead() {
	sc := k.cand.score // once dropped, k is the worker's to recycle
	if !k.returned.Load() {
		k.counted.Store(true)
		sc.abandoned.Add(1)
		if !k.mutation {
			sc.countLost(k.seq)
		}
		if sc.neverAnswered() { // a clock read only then
			sc.missedFirst(snitchClock.Nanos(time.Now()))
		}
	}
	if !k.mutation && !k.scored() && k.ctx.Err() == context.DeadlineExceeded && (!k.callers || sc.late(time.Since(k.sent), 0)) {
		k.overdue.Store(true)
		sc.countOverdue(k.seq, snitchClock.Nanos(time.Now()))
	}
	if k.holders.Add(-1) == 0 { // the replica returned since: neither, after all
		k.uncount()
		k.recycle()
	}
}

// dropByWorker lets go of k for its worker. Dropping it last, the worker
// ends an abandoned or overdue call, if the read counted it so.
func (k *call) dropByWorker() {
	if k.holders.Add(-1) == 0 {
		k.uncount()
		k.recycle()
	}
}

// uncount takes back what dropByRead counted of k, once its replica has
// returned from it and both holders have let go.
func (k *call) uncount() {
	if k.counted.Load() {
		k.cand.score.abandoned.Add(-1)
		if !k.mutation {
			k.cand.score.lostReads.Add(-1)
		}
	}
	if k.overdue.Load() {
		k.cand.score.overdue.Add(-1)
	}
}

func (k *call) recycle() {
	c := k.c
	*k = call{}
	c.calls.Put(k)
}

// run runs the request on the worker's goroutine.
func (k *call) run() {
	k.started.Store(true)
	if k.mutation {
		k.apply()
		return
	}
	k.read()
}

// read runs a replica read. It recovers a panicking replica, checks a
// data answer, and feeds the response time, from the moment the read sent
// it, to the snitch: a loser cancelled at the end of a read is recorded at
// its cancellation time, so a replica that is always hedged around still
// looks slow.
func (k *call) read() {
	k.err = k.safeRead()
	k.returned.Store(true)
	k.at = k.now()
	switch {
	case k.err != nil || k.cmd.DigestOnly:
	case k.digestData && k.part.Key == k.cmd.Key: // one walk validates and digests (a sliced query's rows are checked after)
		if k.digest, k.err = k.part.ValidateDigest(k.cmd.DigestVersion); k.err == nil {
			k.err = checkRows(&k.cmd, &k.part, k.oneRow)
		}
	default:
		k.err = checkData(&k.cmd, &k.part, k.oneRow)
	}
	// The snitch and the outcome reporter learn the answer's verdict, not
	// the call's: an answer for another key, or one that fails validation,
	// is the replica's failure, and a replica that keeps giving them must
	// lose its rank as one that keeps failing does.
	timedOut := k.timedOut()
	cut := timedOut && k.callers // judged as a cancellation: see score.ended
	cancelled, peers := k.cancelled() || cut, time.Duration(0)
	if cancelled {
		peers = time.Duration(k.lateAfter.Load())
	}
	quiet := k.cand.score.ended(k.seq, k.waited(timedOut), k.at, k.err, cancelled, timedOut && !cut, peers)
	if k.probeAt != 0 && quiet && k.ctx.Err() == nil {
		// Refused for the data's tombstones sooner than its score while
		// its read still waited, the one quiet end with the read's context
		// live: the replica answered and told nothing of its health, and
		// kept, the claim put its probe off by a whole further
		// ResetInterval. A probe its caller cancelled keeps its claim, as
		// a loser does: a driver cancels each losing speculative execution,
		// and released, a sick replica was probed, and waited for, by every
		// statement (a review's scenario; a healed one is asked again an
		// interval later).
		k.cand.score.unclaim(k.probeAt, k.c.snitch.cfg.ResetInterval)
	}
	k.markScored()
	k.report()
	k.deliver()
}

// waited returns how long the read waited for the request: until it
// ended, or, for one that timed out, until the deadline at most, however
// late the replica returned from it.
func (k *call) waited(timedOut bool) time.Duration {
	d := k.at.Sub(k.sent)
	if !timedOut {
		return d // spares an answer the walk up its contexts to a deadline
	}
	if dl, ok := k.ctx.Deadline(); ok {
		d = min(d, max(dl.Sub(k.sent), 0))
	}
	return d
}

// cancelled reports whether the read cancelled the request: a replica's
// own error wrapping context.Canceled (a client's torn-down stream, say),
// while the read still waits, is its failure; and so is one at the read's
// deadline, when a context the replica derived from its request's says
// Canceled (its Cause wraps DeadlineExceeded): the request timed out. A
// replica that returned an error once its context had ended has the
// context's error instead (see cutShort).
func (k *call) cancelled() bool {
	return k.err != nil && k.ctx.Err() == context.Canceled && errors.Is(k.err, context.Canceled)
}

// timedOut reports whether the request ended with a context error at the
// read's deadline: its own context's, or a derived one's (Canceled).
func (k *call) timedOut() bool {
	return k.err != nil && k.ctx.Err() == context.DeadlineExceeded &&
		(errors.Is(k.err, context.DeadlineExceeded) || errors.Is(k.err, context.Canceled))
}

// apply runs a repair write of k.part.
func (k *call) apply() {
	k.err = k.c.safeApply(k.ctx, k.cand, replica.Mutation{Table: k.cmd.Table, Partition: k.part})
	k.returned.Store(true)
	k.at = k.now()
	k.report()
	k.deliver()
}

// deliver hands the answer to the read: its index on the round's channel
// (the adopting round's, if one adopted it before it was scored), then the
// count that may wake the read.
func (k *call) deliver() {
	w, failed, ch := k.w, k.err != nil, k.ch
	if k.state.Load()&callMoved != 0 {
		ch = k.moved
	}
	ch <- k.idx
	w.delivered(failed)
}

const (
	callScored int32 = 1 << iota
	callMoved
)

// scored reports whether the snitch has recorded how the request ended.
func (k *call) scored() bool { return k.state.Load()&callScored != 0 }

// markScored records that the snitch has; a read request is then handed
// to the round whose channel it goes to, and no later round adopts it.
func (k *call) markScored() { k.state.Or(callScored) }

// adoptInto has a read request not yet scored deliver its answer on ch,
// and reports whether it will; a request already scored goes where it was
// sent. The state is one word, so that the worker's claim (markScored)
// and the adoption exclude each other. Only the read adopts, and moved is
// written only while the state is 0: the worker reads it once it sees
// callMoved, which a second adoption would not set, but rewriting moved
// would race with that read.
func (k *call) adoptInto(ch chan int) bool {
	if k.state.Load() != 0 {
		return false
	}
	k.moved = ch
	return k.state.CompareAndSwap(0, callMoved)
}

// now is the time, from one reading of the monotonic clock since k was
// sent: time.Now reads the wall clock too, and on a VM whose clock is
// kvm-clock that was 60 ns against 35 (a QUORUM read takes two answers).
func (k *call) now() time.Time { return k.sent.Add(time.Since(k.sent)) }

// report tells the outcome reporter, if any, how the request ended,
// unless ForgetReplica has forgotten its replica since: a request its read
// gave up on, to a node that hangs, returns only as the departed node's
// connection is closed, after the node was forgotten, and told of that
// failure a failure detector that had forgotten the node too
// (ring.Detector.Forget) tracked it again, convicted, and probed its
// closed connection for as long as it ran.
func (k *call) report() {
	if k.out != nil && !k.cand.score.forgotten.Load() {
		k.c.reportOutcome(replica.Outcome{Replica: k.cand.r, Endpoint: k.cand.ep, Err: k.err, Latency: k.at.Sub(k.sent)})
	}
}

func (k *call) safeRead() (err error) {
	defer k.c.recoverReplica(k.cand, &err)
	resp, err := k.cand.r.Read(k.ctx, k.cmd)
	err = usable(cutShort(k.ctx, err), "replica", k.cand.ep.ID)
	k.tombstones = resp.Tombstones
	switch {
	case err != nil:
	case k.cmd.DigestOnly:
		k.digest = resp.Digest
	default:
		k.part = resp.Partition
	}
	return err
}

func (c *Coordinator) safeApply(ctx context.Context, cand candidate, m replica.Mutation) (err error) {
	defer c.recoverReplica(cand, &err)
	return usable(cutShort(ctx, cand.r.Apply(ctx, m)), "replica", cand.ep.ID)
}

// cutShort returns the error of a request that returned err under ctx:
// ctx's error if ctx had ended by then, whatever err the replica gave.
// The coordinator, or its caller, cut such a request short (its read had
// its answers, a hedge won, the read or the write timed out, the caller
// gave up, Close), and an adapter that answers a cancelled context with a
// transport error of its own (replica.ErrConnectionFailed, a gRPC
// Unavailable) would otherwise have had a failure detector convict a
// healthy node, the snitch count it a miss and the trace show it failed.
// It is decided as the replica returns: a request that failed before its
// context ended keeps its error (one that failed as the context ended may
// be taken for cut short), and a panic, an answer or an answer that fails
// its checks is the replica's, whenever it came. One that failed at or
// after its deadline timed out, though the timer due then has not run
// yet: a read's context is ended here as that timer would end it, so that
// a replica that timed its own context to the same deadline, and failed
// with a transport error as it passed, is judged the same whichever timer
// ran first (had its ran first, a failure detector convicted the node).
func cutShort(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if rc, ok := ctx.(*readContext); ok {
		if rc.expireBy(time.Now()) {
			return context.DeadlineExceeded
		}
	} else if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return context.DeadlineExceeded // an ASYNC repair's
	}
	return err
}

// recoverReplica turns a replica's panic into its failure.
func (c *Coordinator) recoverReplica(cand candidate, err *error) {
	v := recover()
	if v == nil {
		return
	}
	if e, ok := v.(error); ok && typednil.Find(e) == nil {
		if p := typednil.Panics(e); p != nil { // Error, Unwrap and the logger would panic again
			v = fmt.Sprintf("a %T whose methods panic: %v", e, p)
		}
	}
	*err = &PanicError{Endpoint: cand.ep, Value: v}
	if c.cfg.Logger != nil {
		c.cfg.Logger.Warn("replica panicked", "replica", cand.ep.ID, "panic", v)
	}
}
