package coordinator

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/ctxcause"
	"github.com/readpath/readpath/internal/stripe"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
)

// Read reads one partition at req.Level: it plans, sends one data request
// (two under ALWAYS) and digest requests, hedges a slow read once,
// compares digests, and on a mismatch reconciles the replicas' versions
// and repairs the stale ones.
//
// It returns *consistency.UnavailableError before sending anything when too
// few replicas are alive, *consistency.ReadTimeoutError when the read
// timeout or ctx's deadline passes first, *consistency.ReadFailureError when
// replica failures made the level unreachable (a BLOCKING repair's failed
// write is among its reasons as a *RepairWriteError), an error wrapping
// context.Canceled when ctx is cancelled (and ctx's cause, if it has one
// of its own), ErrInvalidRequest for a bad
// request, ErrBadPlacement or the locator's error when replicas cannot be
// found, and ErrClosed after Close. With an error, the Result holds the
// read's Trace (see Result).
func (c *Coordinator) Read(ctx context.Context, req Request) (Result, error) {
	return c.read(ctx, req, false)
}

// read is Read. Unless owned says the request's column selection and
// slices are the coordinator's already (ReadMany's copies), it reads its
// own copies of them: a replica's late answer is checked against them on a
// worker after Read has returned, when the caller may be reusing its
// slices. (A page that resumes a paging state reads slices of its own.)
func (c *Coordinator) read(ctx context.Context, req Request, owned bool) (Result, error) {
	if ctx == nil {
		return Result{}, fmt.Errorf("%w: nil context", ErrInvalidRequest)
	}
	if c.closed.Load() {
		return Result{}, ErrClosed
	}
	if err := req.validate(); err != nil {
		return Result{}, err
	}
	stack := stripe.Stack()
	st := c.dealer.Of(stack)
	c.inFlight.AddAt(st, 1)
	defer c.inFlight.AddAt(st, -1)
	q, remaining, err := req.query()
	if err != nil {
		return Result{}, err
	}
	if !owned {
		req.Columns = ownedColumns(req.Columns)
		if len(req.PagingState) == 0 {
			q.Slices = slices.Clone(q.Slices)
		}
	}
	r := newRead(c, c.readTable(req.Table), req)
	defer r.end()
	r.stack, r.stripe = stack, st
	r.q, r.remaining = req.paged(q, remaining)
	p, err := r.run(ctx)
	r.finish(err)
	return r.result(p, err)
}

// run plans the read and executes it with the table's strategy. The read
// is counted once planned, in the table the plan settled (see makePlan).
func (r *read) run(parent context.Context) (p replica.Partition, err error) {
	err = r.makePlan(parent.Err() != nil)
	r.hot = &r.t.m.hot[r.stripe]
	r.c.noteReader(r.hot, r.stack, r.start)
	r.hot.reads[r.req.Level].Add(1)
	if err != nil {
		return p, err
	}
	deadline := r.start.Add(r.c.cfg.ReadTimeout)
	if d, ok := parent.Deadline(); ok && d.Before(deadline) {
		deadline, r.callers = d, true
	}
	r.parent = parent
	r.ctx = newReadContext(parent, deadline)
	defer r.cancelRequests()
	// The first round's requests are timed from now, after planning: the
	// Locator's and the Liveness view's time is the coordinator's, and
	// counted against the replicas it inflated their latency scores, their
	// Outcomes and the trace's answer times.
	sent := r.now()
	if parent.Err() != nil || r.ctx.expireBy(sent) {
		return p, r.sentNothing()
	}
	r.c.deposit(r.t, r.start)
	r.decideSpeculation()
	if r.opts.Strategy == DigestFirst && r.plan.blockFor > 1 {
		err = r.digestFirst(sent)
	} else {
		err = r.dataAndDigests(sent)
	}
	if err == errSentNothing {
		return p, r.sentNothing()
	}
	r.endFirstRound(err)
	if err != nil {
		return p, err
	}
	return r.resolve()
}

// makePlan locates the replicas and plans whom to contact. The first
// read of a table the Locator places gives the table its state. A read
// whose context has ended plans, for its trace and errors, but claims no
// probe (see planInput).
func (r *read) makePlan(ended bool) error {
	var (
		reps []replica.Replica
		eps  []replica.Endpoint
		repl consistency.Replication
		err  error
	)
	if r.c.placer != nil {
		reps, eps, repl, err = r.placement()
	} else {
		reps, eps, repl, err = r.locate()
	}
	if err != nil {
		return fmt.Errorf("coordinator: locating %s/%q: %w", r.req.Table, r.req.Key, err)
	}
	candBuf := r.candBuf[:0]
	if n := len(eps); n > inlineReplicas {
		candBuf = r.wide.candidates(n)
	}
	if r.t == r.c.unplaced {
		// The table's state, not its options: a SetTableOptions since the
		// read started (which may have made the table) does not apply to
		// it, and its options are DefaultTable's, which it started with.
		r.t = r.c.table(r.req.Table)
	}
	in := planInput{
		level: r.req.Level, repl: repl, localDC: r.c.cfg.LocalDatacenter,
		live: r.c.cfg.Liveness, snitch: &r.c.snitch, now: r.start, noProbe: ended,
		digestFirst: r.opts.Strategy == DigestFirst,
	}
	r.plan, err = makePlan(in, reps, eps, candBuf)
	r.trace.BlockFor = r.plan.blockFor
	return err
}

// locate asks the Locator for the read's replicas, then each replica for
// its endpoint, and checks them.
func (r *read) locate() ([]replica.Replica, []replica.Endpoint, consistency.Replication, error) {
	reps, repl, err := r.c.cfg.Locator.Locate(r.req.Table, r.req.Key)
	if err = usable(err, "Locator", ""); err != nil {
		return nil, nil, repl, err
	}
	eps, err := endpoints(reps, r.endpointRoom(len(reps)), nil)
	if err == nil {
		err = checkPlacement(reps, eps, repl, r.c.cfg.LocalDatacenter, true, &r.wide.dups)
	}
	if err == nil && !r.req.Level.IsDatacenterLocal() {
		if dc, n := overListed(eps, repl); n > 0 {
			err = tooMany(n, dc, repl, r.req.Level)
		}
	}
	return reps, eps, repl, err
}

// placement asks the PlacementLocator for the read's placement and returns
// the replicas the read plans over (see Placement.forRead), and their
// endpoints.
func (r *read) placement() ([]replica.Replica, []replica.Endpoint, consistency.Replication, error) {
	p, err := r.c.placer.LocatePlacement(r.req.Table, r.req.Key)
	switch err = usable(err, "Locator", ""); {
	case err != nil:
		return nil, nil, consistency.Replication{}, err
	case p == nil:
		return nil, nil, consistency.Replication{}, fmt.Errorf("%w: LocatePlacement returned no placement", ErrBadPlacement)
	case len(p.reps) == 0: // NewPlacement refuses none: the zero Placement
		return nil, nil, consistency.Replication{}, fmt.Errorf("%w: LocatePlacement returned a Placement not made by NewPlacement", ErrBadPlacement)
	}
	only, err := p.forRead(r.req.Level, r.c.cfg.LocalDatacenter)
	if err != nil {
		return nil, nil, p.repl, err
	}
	reps := p.reps
	if only != nil {
		reps = r.replicaRoom(len(only))
		for _, i := range only {
			reps = append(reps, p.reps[i])
		}
	}
	eps, err := endpoints(reps, r.endpointRoom(len(reps)), only)
	return reps, eps, p.repl, err
}

// endpointRoom returns an empty buffer with room for n endpoints: the
// read's own, or past inlineReplicas one it keeps (see wideBufs).
func (r *read) endpointRoom(n int) []replica.Endpoint {
	if n > inlineReplicas {
		return r.wide.endpoints(n)
	}
	r.placed = max(r.placed, n)
	return r.epBuf[:0]
}

// replicaRoom returns an empty buffer with room for n replicas, which the
// read keeps (see wideBufs): only DC-local reads of a Placement use it.
func (r *read) replicaRoom(n int) []replica.Replica { return r.wide.replicas(n) }

// decideSpeculation loads the table's threshold and decides whether the
// read's first round may speculate at all. A threshold past the caller's
// deadline does not stop it: armSpeculation sets no hedge past the
// deadline, but a failure that leaves the round no other way, or a request
// refused unsent, is still replaced at once, as in the later rounds. (With
// a deadline shorter than the threshold, half the read timeout before a
// table's first samples, a wedged replica failed every read that asked it.)
func (r *read) decideSpeculation() {
	d, ok := r.t.threshold.LoadFor(r.opts.SpeculativeRetry, r.start)
	r.trace.Threshold, r.trace.Speculate = d, ok
	r.always = ok && r.opts.SpeculativeRetry.Kind() == latency.KindAlways
	r.hedging = ok && r.req.Level != consistency.EachQuorum
	r.threshold = d
}

// errSentNothing is what the first round returns when the read's time ran
// out in the coordinator before it sent anything (see sentNothing).
var errSentNothing = errors.New("coordinator: the read's time ran out before anything was sent")

// sentNothing ends a read whose context ended, or whose time the
// coordinator used up (a slow Locator or Liveness view), before anything
// was sent: what was sent then could not be used (it timed out at once,
// charged to replicas that were given no time), and a timeout now would
// feed the first round's tracker a latency no replica took. A probe
// claimed meanwhile is left to the next read.
func (r *read) sentNothing() error {
	r.releaseProbe()
	return r.interrupted()
}

// unclaimProbe leaves the probe the read claimed to the next read, when
// cand is that replica and its request is not to go out after all.
func (r *read) unclaimProbe(cand candidate) {
	if cand.score == r.plan.probe {
		r.releaseProbe()
	}
}

// releaseProbe leaves a probe the read claimed and has not sent to the
// next read.
func (r *read) releaseProbe() {
	if r.plan.probeAt != 0 {
		r.plan.probe.unclaim(r.plan.probeAt, r.c.snitch.cfg.ResetInterval)
		r.plan.probeAt = 0
	}
}

// interrupted turns the end of ctx into the read's error: the caller's
// cancellation, or a timeout carrying what the running round had.
func (r *read) interrupted() error {
	cause := r.callerEnded() // the caller's deadline, seen before it reaches r.ctx
	perr := r.parent.Err()
	if perr != nil && cause == nil {
		cause = ctxcause.Err(r.parent) // it ended since callerEnded looked
	}
	if errors.Is(perr, context.Canceled) {
		return fmt.Errorf("coordinator: read cancelled: %w", cause)
	}
	if cause == nil {
		cause = r.ctx.Err()
	}
	data := r.dataPresent()
	return &consistency.ReadTimeoutError{
		Level: r.req.Level, BlockFor: r.plan.blockFor, Received: r.received(data),
		DataPresent: data, Cause: cause,
	}
}

// failure is the read's error when replica failures made the running
// round unreachable.
func (r *read) failure() error {
	data := r.dataPresent()
	return &consistency.ReadFailureError{
		Level: r.req.Level, BlockFor: r.plan.blockFor, Received: r.received(data),
		Failures: r.rd.failures, DataPresent: data, Reasons: r.reasons,
	}
}

// received is the count of answers a failed read reports against the
// level's blockFor. With data in hand it is below blockFor, as a driver
// reads "enough answers and data" as a read that did not fail: a
// short-read round waits for every version merged, which may be more than
// blockFor (see fetchMore), and Cassandra's BlockingReadRepair.awaitWrites
// caps its count at blockFor-1 alike. Without data, blockFor answers is
// what the driver retries on.
func (r *read) received(dataPresent bool) int {
	n := r.rd.counted()
	if dataPresent {
		n = min(n, r.plan.blockFor-1)
	}
	return n
}

// dataPresent reports whether the read had a data answer, for its error.
func (r *read) dataPresent() bool { return r.rd.dataIn || r.rd.phase != PhaseInitial }
