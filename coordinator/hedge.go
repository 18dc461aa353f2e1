package coordinator

import "context"

// hedge sends the read's one speculative request, if the budget, the
// overload switch and the candidates allow, to the closest replica not yet
// contacted: a digest request if data is already in, else a data request.
// A hedge that is due but not sent is counted by cause.
func (r *read) hedge(ctx context.Context) {
	if r.hedged {
		return // once per read: a failure may have sent it before the timer
	}
	r.hedged = true
	if cause := r.hedgeAllowed(); cause != NotSuppressed {
		r.trace.Hedge.Suppressed = cause
		return
	}
	kind := KindData
	if r.dataIn {
		kind = KindDigest
	}
	r.sendHedge(ctx, kind)
}

// sendHedge sends the speculative request to the next candidate.
func (r *read) sendHedge(ctx context.Context, kind RequestKind) {
	cand := r.plan.order[r.next]
	r.next++
	r.markHedge(r.send(ctx, cand, kind, PhaseSpeculative, now()), cand)
}

// hedgeAllowed checks, in order, that a candidate is left, that the
// coordinator is not overloaded, and withdraws from the hedge budget. It
// counts what stops the hedge.
func (r *read) hedgeAllowed() SuppressCause {
	m := &r.t.m
	switch {
	case r.next >= len(r.plan.order):
		m.noCandidate.Add(1)
		return NoCandidate
	case r.c.cfg.MaxInFlight > 0 && r.c.inFlight.Load() > int64(r.c.cfg.MaxInFlight):
		m.suppressedOverload.Add(1)
		return SuppressedOverload
	case r.c.budget != nil && !r.c.budget.TryWithdraw(now()):
		m.suppressedBudget.Add(1)
		return SuppressedBudget
	}
	return NotSuppressed
}

// markHedge records a speculative request that was sent.
func (r *read) markHedge(idx int, cand candidate) {
	r.hedgeIdx = idx
	r.trace.Hedge.Fired, r.trace.Hedge.At, r.trace.Hedge.To = true, r.trace.Requests[idx].Sent, cand.ep.ID
	r.t.m.speculative.Add(1)
	if o := r.c.cfg.Observer; o != nil {
		o.OnHedge(HedgeEvent{Table: r.req.Table, Key: r.req.Key, To: cand.ep, Kind: r.trace.Requests[idx].Kind,
			After: r.trace.Hedge.At, Threshold: r.threshold})
	}
}
