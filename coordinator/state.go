package coordinator

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// inlineReplicas is how many replicas a read plans without allocating,
// and inline how many requests and answers it books: as many, so that a
// read at ALL over RF 9 grows no slice (growing them from four was six of
// its eleven allocations and 8 % of its time). Read states are recycled,
// so the room costs nothing per read.
const (
	inlineReplicas = 16
	inline         = inlineReplicas
)

// read is the state of one read. Only the goroutine running Read touches
// it; request goroutines talk to it through the running round's channel
// and the read's waker.
// Its inline buffers are most of its size, and release clears only what a
// read used of them: clearing all 4.9 KB cost a QUORUM read 3 % of its time.
type read struct {
	readState
	inlineBufs
}

// inlineBufs are a read's inline buffers; placed, calls and answers say
// how much of them it used.
type inlineBufs struct {
	epBuf   [inlineReplicas]replica.Endpoint
	candBuf [inlineReplicas]candidate
	callBuf [inline]*call
	reqBuf  [inline]RequestTrace
	ansBuf  [inline]*call
}

// readState is the rest of a read's state, cleared whole by release.
type readState struct {
	c   *Coordinator
	t   *table
	hot *hotCounters // the table's, on this read's stripe
	// roomBuf holds the rooms of a BLOCKING repair's diffs (see takeRooms).
	roomBuf [4]*repair.DiffRoom
	// stack identifies the reading goroutine (stripe.Stack), and stripe
	// is the one the coordinator's dealer gave it.
	stack  uintptr
	stripe int
	req    Request
	opts   TableOptions
	start  time.Time
	// The read's time, at which every replica purges, and the time before
	// which tombstones go: the same in every command of the read.
	nowInSec, gcBefore int64
	q                  replica.Query // the query the read runs: the request's, or its next page
	columns            []string      // the request's column selection, sorted (answers are checked against it)
	remaining          int           // the rows its paging state left it, 0 for no bound but q's limit
	parent             context.Context
	ctx                *readContext
	plan               plan
	trace              Trace

	hedging   bool          // the first round may speculate
	always    bool          // ALWAYS: its speculative request goes up front
	threshold time.Duration // the table's threshold, from start
	slowest   time.Duration // the slowest answer to a read request (see cancelRequests)
	callers   bool          // its deadline is the caller's, sooner than the read timeout (see score.ended)
	timer     *readTimer    // the read's one timer, recycled by release
	hedgeIdx  int           // the first round's speculative request, when sent
	fetching  bool          // a digest-first read is fetching its data
	next      int           // then, the next fastest digest replica in plan.order
	answered  int           // then, how many of plan.order answered the digest round
	due       int           // and how many, from there, were still due to answer

	hedgeBooked bool // the first round's hedge is counted won or failed (see bookHedges)
	finished    bool // the read's outcome is counted (see finish)

	spareCh chan int  // a finished read's round channel, for the next read's round
	w       *waker    // kept by release: wakes the read (see waker.go)
	rd      round     // the round running
	calls   []*call   // per request index, all rounds
	answers []*call   // successful read answers, all rounds
	lastAt  time.Time // when the first round's last successful answer arrived
	ackedAt time.Time // when the repair round's last acknowledgement arrived

	stale      []staleReplica // a BLOCKING repair's writes,
	staleFirst int            // from this request index on

	tombstones  int  // the most tombstones an answer met
	overwhelmed bool // a replica refused the read for its tombstones
	refusedAt   int  // the most tombstones a refusal met
	reasons     map[string]error

	// blocks hold the merge of a mismatch's versions, until the result
	// takes them.
	blocks *resultBlocks

	wide   wideBufs   // kept by release, for placements past inlineReplicas
	vs     versionBuf // kept by release, for a mismatch's versions
	placed int        // how many of epBuf and candBuf the plan filled
}

// newRead returns a read state. They are recycled (Coordinator.reads): a
// read is a few hundred bytes of buffers, and reads are many. Nothing
// outside Read refers to one once it returns: workers hold only their call,
// the round's channel and the waker (see waker.go).
func newRead(c *Coordinator, t *table, req Request) *read {
	r := c.reads.Get().(*read)
	r.c, r.req, r.start = c, req, now()
	r.columns = sortedColumns(req.Columns)
	r.nowInSec = req.NowInSec
	if r.nowInSec == 0 {
		r.nowInSec = r.start.Unix()
	}
	r.useTable(t)
	return r
}

// useTable makes t the read's table, and its options the read's.
func (r *read) useTable(t *table) {
	r.t, r.opts = t, *t.opts.Load()
	r.gcBefore = gcBefore(r.nowInSec, r.opts.gcGrace())
}

// gcBefore is nowInSec less grace (0 or more), saturating at
// math.MinInt64: a clock before 1970 less a grace near math.MaxInt64
// wrapped around to a time after the read's, before which every tombstone
// would be purged.
func gcBefore(nowInSec, grace int64) int64 {
	if nowInSec < math.MinInt64+grace {
		return math.MinInt64
	}
	return nowInSec - grace
}

// release recycles the read's timer, drops its calls, clears the read so
// that it holds on to nothing, and recycles it.
func (r *read) release() {
	if r.timer != nil {
		r.timer.recycle(&r.c.timers)
		r.timer = nil
	}
	spare := r.reusableChannel()
	for _, k := range r.calls {
		k.dropByRead()
	}
	// A slice past its inline buffer grew from it full.
	clear(r.epBuf[:r.placed])
	clear(r.candBuf[:r.placed])
	clear(r.callBuf[:min(len(r.calls), inline)])
	clear(r.reqBuf[:min(len(r.trace.Requests), inline)])
	clear(r.ansBuf[:min(len(r.answers), inline)])
	if r.blocks != nil { // no result took them: nothing refers to the merge
		r.blocks.recycle()
	}
	c, wide, vs, w := r.c, r.wide, r.vs, r.w
	wide.clear()
	vs.clear()
	r.readState = readState{}
	r.spareCh, r.wide, r.vs, r.w = spare, wide, vs, w
	c.reads.Put(r)
}

func (r *read) since() time.Duration { return time.Since(r.start) }

// now is the read's clock: one monotonic reading since its start, where
// the coordinator's now reads the wall clock too (53 ns against 28 on the
// benchmarks' VM, several times a read).
func (r *read) now() time.Time { return r.start.Add(r.since()) }

// book records the request k is about to run in the running round and
// gives it its index.
func (r *read) book(k *call, kind RequestKind, speculative bool) {
	if r.calls == nil {
		r.calls, r.trace.Requests = r.callBuf[:0], r.reqBuf[:0]
	}
	k.idx = len(r.calls)
	r.trace.Requests = append(r.trace.Requests, RequestTrace{
		Endpoint: k.cand.ep.ID, Datacenter: k.cand.ep.Datacenter, Rack: k.cand.ep.Rack, Kind: kind, Phase: r.phaseOf(speculative),
		Speculative: speculative, Sent: k.sent.Sub(r.start),
	})
	r.calls = append(r.calls, k)
	r.rd.sent(&k.cand, kind == KindData)
	r.t.m.countRequest(r.hot, kind)
}

// phaseOf is the trace phase of a request of the running round: the first
// round's speculative request has a phase of its own.
func (r *read) phaseOf(speculative bool) Phase {
	if speculative && r.rd.phase == PhaseInitial {
		return PhaseSpeculative
	}
	return r.rd.phase
}

// send starts one read request in the running round, sent at at, on a
// worker (see workers.go). The worker never blocks on the round's channel,
// which has room for all its requests, so it ends when the replica's call
// returns.
func (r *read) send(cand candidate, kind RequestKind, speculative bool, at time.Time) int {
	return r.sendQuery(cand, r.q, kind, speculative, at)
}

// sendQuery is send with a query of its own: short-read protection asks a
// replica for the rows after those it returned.
func (r *read) sendQuery(cand candidate, q replica.Query, kind RequestKind, speculative bool, at time.Time) int {
	k := r.c.newCall()
	k.c, k.ctx, k.ch, k.w, k.cand, k.sent, k.digestData = r.c, r.ctx, r.rd.ch, r.w, cand, at, r.plan.blockFor > 1 && r.rd.phase == PhaseInitial
	k.oneRow, k.callers = r.opts.NoClusteringColumns, r.callers
	k.out = r.c.cfg.Outcomes
	k.cmd = replica.Command{
		Table: r.req.Table, Key: r.req.Key, DigestOnly: kind == KindDigest, Columns: r.columns,
		Query: q, NowInSec: r.nowInSec, GCBefore: r.gcBefore, DigestVersion: r.plan.digestVersion,
		TombstoneFailureThreshold: threshold(r.opts.TombstoneFailureThreshold, defaultTombstoneFailure),
	}
	r.book(k, kind, speculative)
	if r.refuseBacklogged(k) {
		return k.idx
	}
	k.seq = cand.score.sent()
	if cand.score == r.plan.probe && r.plan.probeAt != 0 { // the probe: rare
		k.probeAt, r.plan.probeAt = r.plan.probeAt, 0
	}
	r.c.workers.run(k, r.stripe)
	return k.idx
}

// sendMutation starts one repair write of p to cand in the running round.
func (r *read) sendMutation(cand candidate, p replica.Partition, speculative bool) int {
	k := r.c.newCall()
	k.c, k.ctx, k.ch, k.w, k.cand, k.sent = r.c, r.ctx, r.rd.ch, r.w, cand, r.now()
	k.out = r.c.cfg.Outcomes
	k.cmd, k.part, k.mutation = replica.Command{Table: r.req.Table}, p, true
	r.book(k, KindRepair, speculative)
	if r.refuseBacklogged(k) {
		return k.idx
	}
	r.c.workers.run(k, r.stripe)
	return k.idx
}

// accept books the answer of request idx of the running round.
func (r *read) accept(idx int) {
	a := r.calls[idx]
	rt := &r.trace.Requests[idx]
	r.rd.ended(&a.cand, rt.Kind == KindData, a.err == nil)
	if a.err != nil && r.ctx.Err() == nil {
		// A failure at or after the deadline, taken before the read's
		// timer has run, times the read out all the same: cutShort judged
		// the replica's own errors so as it returned, and an answer that
		// failed its checks is judged so here.
		r.ctx.expireBy(a.at)
	}
	if a.err != nil && r.ctx.Err() != nil && isContextErr(a.err) && r.cutOff(a.at) {
		// Cut off by the read's end (its deadline, or its caller's), which
		// the read may take before it sees its context end: pending, as a
		// request it stopped waiting for, so that a BLOCKING repair's write
		// goes on to the ASYNC queue whichever the read took first.
		return
	}
	rt.Done = a.at.Sub(r.start)
	if a.err != nil {
		rt.Outcome, rt.Err = Failed, a.err
		r.addReason(a.cand.ep.ID, reasonOf(rt.Kind, a))
		if errors.Is(a.err, replica.ErrTombstoneOverwhelming) {
			r.overwhelmed = true
			var toe *replica.TombstoneOverwhelmingError
			if errors.As(a.err, &toe) {
				r.refusedAt = max(r.refusedAt, toe.Tombstones)
			}
		}
		return
	}
	rt.Outcome = Answered
	if !a.mutation { // 1 ns at least: an answer in no measurable time (a fake's, in a bubble) is one
		r.slowest = max(r.slowest, a.at.Sub(a.sent), 1)
	}
	// An answer's count only: a failed request's Response, beside its
	// error, is none (a refusal's count is its error's).
	r.tombstones = max(r.tombstones, a.tombstones)
	if rt.Kind == KindRepair {
		r.ackedAt = a.at
		return
	}
	r.lastAt = a.at
	if r.answers == nil {
		r.answers = r.ansBuf[:0]
	}
	r.answers = append(r.answers, a)
}

// cutOff reports whether the read, its context ended, had ended when an
// answer arrived at at: an answer of a read its caller cancelled may have
// been cut off by it, whenever it arrived; one of a read that reached its
// deadline was, if it arrived at the deadline or after (the read's timer,
// or its caller's, cancels no earlier), and an error before it is the
// replica's own, which the read took late (its goroutine held up in a
// Liveness view or a pause), and a failure as it is taken on time.
func (r *read) cutOff(at time.Time) bool {
	return r.ctx.Err() != context.DeadlineExceeded || !at.Before(r.ctx.deadline)
}

// dropEarlierReasons starts a round's reasons: its failure reports its
// own failures, as it counts them (each of Cassandra's ReadCallbacks keeps
// its own failure reasons), so a replica that failed in an earlier round
// is not a reason of this one's. A refusal for tombstones stays: it fails
// the read in whichever round sees it.
func (r *read) dropEarlierReasons() {
	for id, err := range r.reasons {
		if !errors.Is(err, replica.ErrTombstoneOverwhelming) {
			delete(r.reasons, id)
		}
	}
}

func (r *read) addReason(id string, err error) {
	if r.reasons == nil {
		r.reasons = make(map[string]error, 2)
	}
	r.reasons[id] = err
}

// requestsTo counts the read's requests to id.
func (r *read) requestsTo(id string) int {
	n := 0
	for _, k := range r.calls {
		if k.cand.ep.ID == id {
			n++
		}
	}
	return n
}

// reusableChannel returns the channel the next read's rounds may take: the
// running round's, emptied, when nothing can arrive on it any more (every
// request of the round has answered, and the read holds no timer: a timer
// not yet recycled may still tick into it, and a request of an earlier
// round it adopted may still answer on it); otherwise the spare this read
// did not take, if any.
func (r *read) reusableChannel() chan int {
	ch := r.rd.ch
	if ch == nil || r.timer != nil || r.rd.adopted > 0 {
		return r.spareCh
	}
	for i := r.rd.first; i < len(r.calls); i++ {
		if r.trace.Requests[i].Outcome == Pending {
			return r.spareCh
		}
	}
	for len(ch) > 0 {
		<-ch
	}
	return ch
}

// isContextErr reports whether err is, or wraps, a context's ending.
func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
