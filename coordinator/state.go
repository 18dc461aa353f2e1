package coordinator

import (
	"context"
	"time"

	"github.com/readpath/readpath/replica"
)

// inline is how many candidates and requests a read holds without
// allocating more.
const inline = 4

// read is the state of one read. Only the goroutine running Read touches
// it; request goroutines talk to it through ch.
type read struct {
	c      *Coordinator
	t      *table
	hot    *hotCounters // the table's, on this read's stripe
	req    Request
	opts   TableOptions
	start  time.Time
	parent context.Context
	ctx    *readContext
	plan   plan
	trace  Trace

	speculate  bool          // this read may send a speculative request
	always     bool          // ALWAYS: it is sent up front
	extra      bool          // ALWAYS's extra request is allowed
	threshold  time.Duration // when to hedge, from start
	hedged     bool          // the one speculative request was tried
	timer      *readTimer    // the read's one timer, recycled by release
	hedgeArmed bool          // it is set for the hedge threshold
	hedgeIdx   int           // its request index, when sent
	next       int           // the next hedge candidate in plan.order

	ch          chan int // the phase's: request indexes as they answer, and ticks
	calls       []*call  // per request index
	received    int      // successful answers counted by the phase
	failures    int
	outstanding int
	outData     int // outstanding data requests
	dataIn      bool
	lastAt      time.Time // when the last successful answer arrived
	answers     []*call   // successful answers, all phases
	reasons     map[string]error

	epBuf   [inline]replica.Endpoint
	candBuf [inline]candidate
	callBuf [inline]*call
	reqBuf  [inline]RequestTrace
	ansBuf  [inline]*call
}

// newRead returns a read state. They are recycled (Coordinator.reads): a
// read is a few hundred bytes of buffers, and reads are many. Nothing
// outside Read refers to one once it returns: workers hold only their call
// and the phase's channel.
func newRead(c *Coordinator, t *table, req Request) *read {
	r := c.reads.Get().(*read)
	r.c, r.t, r.req, r.start = c, t, req, now()
	r.opts = *t.opts.Load()
	return r
}

// release recycles the read's timer, drops its calls, clears the read so
// that it holds on to nothing, and recycles it.
func (r *read) release() {
	if r.timer != nil {
		r.timer.recycle(&r.c.timers)
	}
	for _, k := range r.calls {
		k.drop()
	}
	c := r.c
	*r = read{}
	c.reads.Put(r)
}

func (r *read) since() time.Duration { return time.Since(r.start) }

// book records the request k is about to run and gives it its index.
func (r *read) book(k *call, kind RequestKind, phase Phase) {
	if r.calls == nil {
		r.calls, r.trace.Requests = r.callBuf[:0], r.reqBuf[:0]
	}
	k.idx = len(r.calls)
	r.trace.Requests = append(r.trace.Requests, RequestTrace{Endpoint: k.cand.ep.ID, Kind: kind, Phase: phase, Sent: k.sent.Sub(r.start)})
	r.calls = append(r.calls, k)
	r.outstanding++
	if kind == KindData {
		r.outData++
	}
	r.t.m.countRequest(r.hot, kind)
}

// send starts one read request, sent at at, on a worker (see workers.go).
// The worker never blocks on ch (each phase's channel has room for all its
// requests), so it ends when the replica's call returns.
func (r *read) send(ctx context.Context, cand candidate, kind RequestKind, phase Phase, at time.Time) int {
	k := r.c.newCall()
	k.c, k.ctx, k.ch, k.cand, k.sent, k.digestData = r.c, ctx, r.ch, cand, at, r.plan.blockFor > 1
	k.cmd = replica.Command{Table: r.req.Table, Key: r.req.Key, DigestOnly: kind == KindDigest, Columns: r.req.Columns}
	r.book(k, kind, phase)
	cand.score.sent()
	r.c.workers.run(k)
	return k.idx
}

// sendMutation starts one repair write on a worker.
func (r *read) sendMutation(ctx context.Context, cand candidate, p replica.Partition) int {
	k := r.c.newCall()
	k.c, k.ctx, k.ch, k.cand, k.sent = r.c, ctx, r.ch, cand, now()
	k.cmd, k.part, k.mutation = replica.Command{Table: r.req.Table}, p, true
	r.book(k, KindMutation, PhaseRepair)
	r.c.workers.run(k)
	return k.idx
}

// accept books the answer of request idx of the current phase.
func (r *read) accept(idx int) {
	a := r.calls[idx]
	rt := &r.trace.Requests[idx]
	rt.Done = a.at.Sub(r.start)
	r.outstanding--
	if rt.Kind == KindData {
		r.outData--
	}
	if a.err != nil {
		rt.Outcome, rt.Err = Failed, a.err
		r.failures++
		r.addReason(a.cand.ep.ID, a.err)
		return
	}
	rt.Outcome = Answered
	r.lastAt = a.at
	r.received++
	if rt.Kind == KindData {
		r.dataIn = true
	}
	if rt.Kind != KindMutation {
		if r.answers == nil {
			r.answers = r.ansBuf[:0]
		}
		r.answers = append(r.answers, a)
	}
}

func (r *read) addReason(id string, err error) {
	if r.reasons == nil {
		r.reasons = make(map[string]error, 2)
	}
	r.reasons[id] = err
}

// newPhase starts a phase after the first round: it makes a channel for
// its n requests and resets the counts the phase waits on.
func (r *read) newPhase(n int) {
	r.settleTimer()
	r.ch = make(chan int, n)
	r.received, r.failures, r.outstanding, r.outData = 0, 0, 0, 0
}
