package coordinator

import (
	"context"
	"sync"
	"time"

	"github.com/readpath/readpath/digest"
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
	req    Request
	opts   TableOptions
	start  time.Time
	parent context.Context
	plan   plan
	trace  Trace

	speculate bool          // this read may send a speculative request
	always    bool          // ALWAYS: it is sent up front
	extra     bool          // ALWAYS's extra request is allowed
	threshold time.Duration // when to hedge, from start
	hedged    bool          // the one speculative request was tried
	timer     *time.Timer   // the hedge timer, stopped by release
	hedgeIdx  int           // its request index, when sent
	next      int           // the next hedge candidate in plan.order

	ch          chan answer
	targets     []candidate // per request index
	received    int         // successful answers counted by the phase
	failures    int
	outstanding int
	outData     int // outstanding data requests
	dataIn      bool
	answers     []answer // successful answers, all phases
	reasons     map[string]error

	candBuf [inline]candidate
	tgtBuf  [inline]candidate
	reqBuf  [inline]RequestTrace
	ansBuf  [inline]answer
}

// reads recycles read states: a read is a few hundred bytes of buffers,
// and reads are many. Nothing outside Read refers to one once it returns:
// request goroutines hold only the phase's channel.
var reads = sync.Pool{New: func() any { return new(read) }}

func newRead(c *Coordinator, t *table, req Request) *read {
	r := reads.Get().(*read)
	r.c, r.t, r.req, r.start = c, t, req, now()
	r.opts = *t.opts.Load()
	return r
}

// release stops the read's timer, clears the read so that it holds on to
// nothing, and recycles it.
func (r *read) release() {
	if r.timer != nil {
		r.timer.Stop()
	}
	*r = read{}
	reads.Put(r)
}

// request is what a request goroutine needs to know of its request.
type request struct {
	idx  int       // index in the trace
	sent time.Time // when the read sent it
	cand candidate // the replica
}

// answer is what a request goroutine hands back.
type answer struct {
	idx    int // request index
	part   replica.Partition
	digest digest.Digest
	err    error
	at     time.Time // when it arrived
}

func (r *read) since() time.Duration { return time.Since(r.start) }

// book records a request about to be sent and returns its index and the
// time it is sent.
func (r *read) book(cand candidate, kind RequestKind, phase Phase) (int, time.Time) {
	if r.targets == nil {
		r.targets, r.trace.Requests = r.tgtBuf[:0], r.reqBuf[:0]
	}
	idx, at := len(r.trace.Requests), now()
	r.trace.Requests = append(r.trace.Requests, RequestTrace{Endpoint: cand.ep.ID, Kind: kind, Phase: phase, Sent: at.Sub(r.start)})
	r.targets = append(r.targets, cand)
	r.outstanding++
	if kind == KindData {
		r.outData++
	}
	r.t.m.countRequest(kind)
	return idx, at
}

// send starts one read request in its own goroutine. The goroutine never
// blocks on ch (each phase's channel has room for all its requests), so it
// ends when the replica's call returns.
func (r *read) send(ctx context.Context, cand candidate, kind RequestKind, phase Phase) int {
	idx, at := r.book(cand, kind, phase)
	cmd := replica.Command{Table: r.req.Table, Key: r.req.Key, DigestOnly: kind == KindDigest, Columns: r.req.Columns}
	cand.score.sent()
	go r.c.readOne(ctx, r.ch, request{idx, at, cand}, cmd)
	return idx
}

// sendMutation starts one repair write in its own goroutine.
func (r *read) sendMutation(ctx context.Context, cand candidate, p replica.Partition) int {
	idx, at := r.book(cand, KindMutation, PhaseRepair)
	go r.c.applyOne(ctx, r.ch, request{idx, at, cand}, replica.Mutation{Table: r.req.Table, Partition: p})
	return idx
}

// accept books one answer of the current phase.
func (r *read) accept(a answer) {
	rt := &r.trace.Requests[a.idx]
	rt.Done = a.at.Sub(r.start)
	r.outstanding--
	if rt.Kind == KindData {
		r.outData--
	}
	if a.err != nil {
		rt.Outcome, rt.Err = Failed, a.err
		r.failures++
		r.addReason(r.targets[a.idx].ep.ID, a.err)
		return
	}
	rt.Outcome = Answered
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

// newPhase makes a channel for a phase of n requests and resets the counts
// the phase waits on.
func (r *read) newPhase(n int) {
	r.ch = make(chan answer, n)
	r.received, r.failures, r.outstanding, r.outData = 0, 0, 0, 0
}
