package coordinator

import (
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
)

// speculate takes the running round's one speculative action, if it may
// still take one and the candidates, the overload switch and the budgets
// allow, and reports whether it sent anything. Whatever happens, the round
// does not speculate again: at most one speculative action per round, each
// drawn from the budgets. Standing in for requests refused unsent where
// too few candidates are left to complete the round, it sends nothing and
// books NoCandidate, so that the round fails at once.
func (r *read) speculate() bool {
	if !r.rd.maySpeculate && !(r.mayStandIn() && r.rd.standsIn()) {
		return false
	}
	r.rd.maySpeculate, r.rd.mayReplace, r.rd.spent = false, false, true
	if r.rd.standsIn() && r.standInsFallShort() {
		r.suppressed(r.roundHedge(), r.allowed(false))
		return false
	}
	eachQuorum := r.req.Level == consistency.EachQuorum
	switch r.rd.phase {
	case PhaseInitial:
		if eachQuorum && !r.fetching {
			return r.standInEach()
		}
		return r.hedge()
	case PhaseReconcile:
		if eachQuorum {
			return r.standInEach()
		}
		return r.reconcileHedge()
	case PhaseRepair:
		return r.additionalWrites()
	}
	return false
}

// mayStandIn reports whether the round may still replace requests refused
// unsent (see round.standsIn): under ALWAYS when its extra request was
// held back (see decideAlways), or when more than the one it makes up for
// were refused; at EACH_QUORUM, which never speculates, in
// a round that could at another level: a refused request left its
// datacenter short of the quorum that no other datacenter can make up.
func (r *read) mayStandIn() bool {
	if r.rd.mayReplace {
		return !r.trace.Hedge.Fired || r.rd.refused > 1
	}
	if r.req.Level != consistency.EachQuorum || r.rd.spent {
		return false
	}
	switch r.rd.phase {
	case PhaseInitial: // not digest-first's digest round, which asks every candidate
		return r.trace.Speculate && r.rd.needData
	case PhaseReconcile:
		return r.reconcileCouldSpeculate()
	}
	return false
}

// standInEach is EACH_QUORUM's action in the first round (but for a
// digest-first read's data request, whose quorums are in) and the
// reconcile round: in each datacenter, as many replicas not yet asked as
// it lacks of its quorum (see standInTargets), the closest first. A
// stand-in for the first round's data request asks for data, the others
// for what the round asks.
func (r *read) standInEach() bool {
	targets := r.standInTargets(r.sendableWhere(func(i int) bool { return !r.asked(i) }))
	if r.suppressed(r.roundHedge(), r.allowed(len(targets) > 0)) {
		return false
	}
	for _, c := range targets {
		r.sendStandIn(c)
	}
	return true
}

// sendStandIn sends c a stand-in for a request refused unsent: in the
// reconcile round a data request, else a data request while no data is
// in or asked for, else a digest request.
func (r *read) sendStandIn(c candidate) {
	switch {
	case r.rd.phase == PhaseReconcile:
		r.sendSpeculative(c, KindData, &r.trace.ReconcileHedge, &r.t.m.reconcileSpeculations)
	case !r.rd.dataIn && r.rd.outData == 0:
		r.sendHedge(c, KindData)
	default:
		r.sendHedge(c, KindDigest)
	}
}

// standInRest follows the round's speculative request, when it stood in
// for requests refused unsent, with a stand-in for each of the others, to
// the next target, while the requests out cannot complete the round: a
// healthy read would have sent them. A stand-in refused in turn is one
// more to replace; each goes to a replica not yet asked, so it ends.
func (r *read) standInRest(target func() (candidate, bool)) {
	for n := 1; n < r.rd.refused && !r.rd.reachable() && r.ctx.Err() == nil; n++ {
		c, ok := target()
		if !ok {
			return
		}
		r.sendStandIn(r.claimRemoteProbe(c))
	}
}

// hedge is the first round's speculative request: to the closest replica
// not yet asked (on another rack than the slow ones, if one is left), a
// digest request if the data is in, else a data request.
func (r *read) hedge() bool {
	cand, ok := r.hedgeTarget()
	if r.suppressed(&r.trace.Hedge, r.allowed(ok)) {
		return false
	}
	cand = r.claimRemoteProbe(cand)
	kind := KindData
	if r.rd.dataIn {
		kind = KindDigest
	}
	r.sendHedge(cand, kind)
	r.standInRest(r.hedgeTarget)
	return true
}

// suppressed books in h why a speculative action that was due is not
// taken, and when, if cause says it is not, and counts it; and reports
// whether. h keeps the first cause booked in it, and only that one is
// counted, so that the table's counters are what the reads' traces say:
// an extra request the budget (under ALWAYS) or the overload switch held
// back stays booked when a stand-in for a request refused unsent then
// fires, or finds too few replicas left (both were once booked over it,
// and counted besides).
func (r *read) suppressed(h *HedgeTrace, cause SuppressCause) bool {
	if cause == NotSuppressed {
		return false
	}
	if h.Suppressed == NotSuppressed {
		h.Suppressed, h.At = cause, r.since()
		r.countSuppressed(cause)
	}
	return true
}

// sendHedge sends the first round's speculative request to cand; the
// first of several, at EACH_QUORUM, is the one traced.
func (r *read) sendHedge(cand candidate, kind RequestKind) {
	first := !r.trace.Hedge.Fired
	idx := r.sendSpeculative(cand, kind, &r.trace.Hedge, &r.t.m.speculative)
	if first {
		r.hedgeIdx = idx
	}
}

// sendSpeculative sends a speculative request of the running round to
// cand, counts it in n and books it in h, unless h holds one already. It
// sends nothing, and returns -1, once the read's time is up (see
// outOfTime): its draw is refunded and a probe it claimed left to the
// next read.
func (r *read) sendSpeculative(cand candidate, kind RequestKind, h *HedgeTrace, n *atomic.Int64) int {
	sent := r.now()
	if r.outOfTime(sent) {
		r.refund()
		r.unclaimProbe(cand)
		return -1
	}
	refused := r.rd.refused
	idx := r.send(cand, kind, true, sent)
	r.refundUnsent(refused, 1)
	at := r.trace.Requests[idx].Sent
	if !h.Fired {
		h.Fired, h.At, h.To = true, at, cand.ep.ID
	}
	n.Add(1)
	r.observeHedge(cand, kind, at)
	return idx
}

// hedgeTarget is whom the first round's speculative request goes to: the
// next fastest digest replica when a digest-first read fetches its data,
// else the speculation target.
func (r *read) hedgeTarget() (candidate, bool) {
	if !r.fetching {
		return r.speculationTarget()
	}
	i := r.nextLive(r.next)
	r.next = i + 1
	if i >= r.answered {
		return candidate{}, false
	}
	return r.plan.order[i], true
}

// nextLive returns the index of the first candidate from i on that a
// speculative request may go to (see sendable), or len(plan.order).
func (r *read) nextLive(i int) int {
	for ; i < len(r.plan.order); i++ {
		if r.sendable(&r.plan.order[i]) {
			break
		}
	}
	return i
}

// sendable reports whether a speculative request may go to c: a replica
// the liveness view convicted since the read was planned is not
// speculated to, nor one at its backlog cap, which would refuse the
// round's one speculative action unsent where another replica could
// have taken it.
func (r *read) sendable(c *candidate) bool {
	if r.c.snitch.atCap(c.score) {
		return false
	}
	l := r.c.cfg.Liveness
	return l == nil || l.IsAlive(c.ep)
}

// allowed checks, in order, that a candidate is left, that the
// coordinator is not overloaded, and withdraws from the table's budget and
// the shared one; it returns what stops the speculation, which suppressed
// books and counts. A speculation that stands in for a request refused
// unsent, without which the round cannot complete, adds no load: neither
// the switch nor the budgets stop it, or a wedged replica the plan cannot
// leave out (a local one at QUORUM) would fail most reads once the budget
// was spent.
func (r *read) allowed(candidate bool) SuppressCause {
	switch {
	case !candidate:
		return NoCandidate
	case r.rd.standsIn():
		return NotSuppressed
	case r.c.overloaded() || r.thresholdPastTimeout():
		return SuppressedOverload
	}
	at := r.now()
	if !r.c.withdraw(r.t, at) {
		return SuppressedBudget
	}
	r.rd.drawn = at
	return NotSuppressed
}

// countSuppressed counts a cause suppressed books in the table's metrics.
func (r *read) countSuppressed(cause SuppressCause) {
	m := &r.t.m
	switch cause {
	case NoCandidate:
		// ALL contacts every replica, so it never has one to spare:
		// Cassandra does not count that as insufficient replicas.
		if r.req.Level != consistency.All {
			m.noCandidate.Add(1)
		}
	case SuppressedOverload:
		m.suppressedOverload.Add(1)
	case SuppressedBudget:
		m.suppressedBudget.Add(1)
	}
}

// refundUnsent returns what the round's speculation drew on the budgets
// when all n of its requests were refused unsent (see BacklogError), the
// round having counted refusedBefore refusals before it sent them: it
// added no load, and a wedged replica that every hedge goes to would
// otherwise spend a budget a retry.Executor may share. Once one is sent
// the draw is spent: a stand-in refused later (it draws nothing) must
// not refund it.
func (r *read) refundUnsent(refusedBefore, n int) {
	if r.rd.refused-refusedBefore >= n {
		r.refund()
	} else {
		r.rd.drawn = time.Time{}
	}
}

// refund returns what the round's speculation drew on the budgets, if it
// drew anything.
func (r *read) refund() {
	if !r.rd.drawn.IsZero() {
		r.c.refund(r.t, r.rd.drawn)
		r.rd.drawn = time.Time{}
	}
}

// thresholdPastTimeout is the overload switch's other half (DESIGN 2.4):
// no first-round speculation while the table's threshold is at or above
// the read timeout, not even one a failure calls for at once; the
// reconcile and repair rounds check theirs before they start
// (reconcileMaySpeculate, additionalWriteWait).
func (r *read) thresholdPastTimeout() bool {
	return r.rd.phase == PhaseInitial && r.c.atTimeout(r.threshold)
}

// atTimeout reports whether threshold d is at the read timeout or past it,
// as far as a latency tracker can tell: a read that times out is recorded
// at the timeout, and a tracker reports the midpoint of a bucket up to 1/64
// of its values wide, which may lie below it. A timeout storm at the
// default 5 s set a 99p of 4.9996 s, and slow reads hedged 0.4 ms before
// their deadline, where no answer could come in time. A threshold of
// latency.MaxLatency is a percentile among samples the tracker clamped, of
// that or longer, which no fixed delay (whole milliseconds) equals: a
// storm under a timeout past it (100 s) set a 99p of MaxLatency, 31 s
// under the timeout, and the switch let reads hedge.
func (c *Coordinator) atTimeout(d time.Duration) bool {
	t := c.cfg.ReadTimeout
	return d >= t-t/64 || d == latency.MaxLatency
}

// overloaded is the overload switch: more reads in flight than MaxInFlight.
func (c *Coordinator) overloaded() bool {
	return c.cfg.MaxInFlight > 0 && c.inFlight.Load() > int64(c.cfg.MaxInFlight)
}

// speculationTarget returns the closest candidate still alive that no
// request of the read went to (Cassandra's firstUncontactedCandidate; for a
// digest-first read, which asked every candidate for a digest, one asked
// only for a digest that had not come in when its first round completed),
// preferring one of its datacenter on a rack where no request of the
// round is still outstanding: a slow replica's rack-mates often share its
// cause (a switch, a power feed, a noisy tenant). Another rack never
// justifies another datacenter: a replica of another datacenter is on
// another rack by definition, and is farther; nor does it justify a
// replica that missed since its last answer over one that did not, which
// would fail the hedge as it failed before. Planning put those behind the
// others; one ahead of them missed since, and goes behind them too (a
// busy rack's first, it took the hedge and failed it again), but for the
// replica whose probe the read claimed, which it is to ask.
func (r *read) speculationTarget() (candidate, bool) {
	var best *candidate
	bestKey := 0 // 2 if it missed, plus 1 if its rack is busy
	for i := range r.plan.order {
		r.rankTail(i)
		c := &r.plan.order[i]
		if r.asked(i) || !r.sendable(c) || (best != nil && c.ep.Datacenter != best.ep.Datacenter) {
			continue
		}
		key := 0
		if missed(c) && c.score != r.plan.probe {
			key = 2
		}
		if best != nil && key >= bestKey {
			continue // no better than best: its rack need not be looked at
		}
		if r.rackOutstanding(c.ep) {
			key++
		}
		if key == 0 {
			return *c, true
		}
		if best == nil || key < bestKey {
			best, bestKey = c, key
		}
	}
	if best == nil {
		return candidate{}, false
	}
	return *best, true
}

// claimRemoteProbe is for the read's speculative request to cand, allowed
// and about to go out: when it is the read's first request to the remote
// group, whose probe planning did not claim, it ranks that group again
// claiming the probe, and returns the speculation target then, which the
// probed replica may be. Claiming at planning would put the probe off
// for every read that then sends nothing there, as most hedge nothing.
func (r *read) claimRemoteProbe(cand candidate) candidate {
	p := &r.plan
	if !p.remoteProbe || cand.ep.Datacenter == r.c.cfg.LocalDatacenter {
		return cand
	}
	p.remoteProbe = false
	remote := p.order[p.local:]
	now := snitchClock.Nanos(r.now())
	probed := r.c.snitch.rank(remote, now, len(remote), true)
	p.tails[1] = orderSpan{} // ranked whole
	if !probed {
		return cand
	}
	p.probe, p.probeAt = remote[0].score, now // ranked first: a target though it missed
	if c, ok := r.speculationTarget(); ok {
		return c
	}
	return cand
}

// rankTail ranks the unranked tail of the plan's order that starts at i,
// if one does: planning ranks only the candidates a read is likely to
// contact, and a walk that goes past them, looking for another rack, must
// meet the rest closest first too. It claims no probe: the walk may not
// pick the one probed.
func (r *read) rankTail(i int) {
	for j, t := range r.plan.tails {
		if t.from == i && t.to-t.from > 1 {
			r.c.snitch.rank(r.plan.order[t.from:t.to], snitchClock.Nanos(r.now()), t.to-t.from, false)
			r.plan.tails[j] = orderSpan{}
		}
	}
}

// missed reports whether c's replica ended a request without an answer
// since its last one, or has one overdue (see score.missing).
func missed(c *candidate) bool { return c.score != nil && c.score.missing() > 0 }

// asked reports whether a request of the read went to plan.order[i]; for a
// digest-first read's straggler, one besides the digest that did not count.
func (r *read) asked(i int) bool {
	n := r.requestsTo(r.plan.order[i].ep.ID)
	if r.fetching && i >= r.answered && i < r.answered+r.due {
		return n > 1
	}
	return n > 0
}

// rackOutstanding reports whether a request of the running round to a
// replica on ep's rack is still outstanding.
func (r *read) rackOutstanding(ep replica.Endpoint) bool {
	for i, k := range r.calls[r.rd.first:] {
		o := k.cand.ep
		if r.trace.Requests[r.rd.first+i].Outcome == Pending && o.Rack == ep.Rack && o.Datacenter == ep.Datacenter {
			return true
		}
	}
	return false
}

// reconcileMaySpeculate says whether the reconcile round may speculate,
// as Cassandra's AbstractReadRepair.shouldSpeculate: never at EACH_QUORUM
// (which only stands in for refused requests where reconcileCouldSpeculate),
// otherwise as reconcileCouldSpeculate says.
func (r *read) reconcileMaySpeculate() bool {
	return r.req.Level != consistency.EachQuorum && r.reconcileCouldSpeculate()
}

// reconcileCouldSpeculate says whether the reconcile round could
// speculate, whatever the level: the level must block for at least a
// quorum (LOCAL_QUORUM for DC-local levels), and the table's threshold
// must be within the read timeout.
func (r *read) reconcileCouldSpeculate() bool {
	l := r.req.Level
	if !r.trace.Speculate || r.c.atTimeout(r.threshold) {
		return false
	}
	least := consistency.Quorum
	if l.IsDatacenterLocal() {
		least = consistency.LocalQuorum
	}
	return r.plan.blockFor >= least.BlockFor(r.plan.repl, r.c.cfg.LocalDatacenter)
}

// reconcileHedge sends a data request to the closest replica not
// contacted at all in this read; a replica that answered a digest and then
// stalled is never the one.
func (r *read) reconcileHedge() bool {
	cand, ok := r.speculationTarget()
	h := &r.trace.ReconcileHedge
	if r.suppressed(h, r.allowed(ok)) {
		return false
	}
	r.sendSpeculative(r.claimRemoteProbe(cand), KindData, h, &r.t.m.reconcileSpeculations)
	r.standInRest(r.speculationTarget)
	return true
}

// speculationAnswered reports whether a speculative request of the round
// of phase ph, which completed, was answered: every answer it accepted
// counted towards it (a reconcile read's version is merged, an additional
// write's acknowledgement counts as a holder), so the action won.
func (r *read) speculationAnswered(ph Phase) bool {
	for _, rt := range r.trace.Requests[r.rd.first:] {
		if rt.Speculative && rt.Phase == ph && rt.Outcome == Answered {
			return true
		}
	}
	return false
}

func (r *read) observeHedge(cand candidate, kind RequestKind, at time.Duration) {
	r.c.observeHedge(r.parent, HedgeEvent{Table: r.req.Table, Key: r.req.Key, To: cand.ep, Kind: kind, Phase: r.rd.phase,
		After: at, At: at, Threshold: r.threshold})
}
