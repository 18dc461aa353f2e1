package coordinator

import "time"

// digestFirst is DataStax Enterprise's strategy, for levels that need more
// than one replica: ask every live candidate for a digest, wait for
// blockFor of them (per datacenter at EACH_QUORUM), then ask the fastest
// for the data. If that data request fails, or has not answered after the
// threshold, the next fastest is asked (the first round's speculative
// request, under the same policy and budgets: not under NEVER, nor at
// EACH_QUORUM, which never speculates); with no one left the read fails by
// the level. The threshold counts from the data request, not from the start
// of the read: the table's threshold is a percentile of whole first
// rounds, digests included, so this hedges conservatively. Either way the
// read ends by its deadline. After a digest mismatch, the reconcile round
// asks for data at once the replicas whose digests had not come in when
// the first round completed (see askStragglers), as it asks the others.
func (r *read) digestFirst(sent time.Time) error {
	r.newRound(PhaseInitial, len(r.plan.order), false, false)
	for _, cand := range r.plan.order {
		r.send(cand, KindDigest, false, sent)
	}
	r.armDeadline()
	if err := r.gather(); err != nil {
		return err
	}
	return r.fetchData()
}

// fetchData asks the fastest digest replicas for the data, in turn.
func (r *read) fetchData() error {
	digests := r.rd
	r.plan.order, r.answered, r.due = r.fastest()
	r.plan.tails = [2]orderSpan{} // the order is by answers now, not by planning
	r.next, r.fetching = 1, true
	r.newRound(PhaseInitial, 2, true, r.hedging)
	for i := range digests.received {
		r.rd.credit(&r.plan.order[i], false) // the digests in hand count
	}
	sent := r.now()
	if r.outOfTime(sent) { // the digests that completed the round came at the deadline
		return r.interrupted()
	}
	r.send(r.plan.order[0], KindData, false, sent)
	if r.always && r.hedging {
		r.speculate() // ALWAYS: the second fastest is asked for data at once
	}
	r.armSpeculation(r.now(), r.threshold)
	return r.gather()
}

// fastest returns the candidates that answered the digest round, fastest
// first: the order the data request and its hedge follow; then the
// stragglers, whose digests had not come in: asked for nothing that
// counted, a reconcile round asks them for data (see askStragglers); then
// those whose digest request failed or was refused. A repair round's
// additional writes may go to either (see withoutVersion): dropped from
// the order, a live replica whose digest failed was never written to, and
// a read that it could have completed timed out. It returns how many
// answered and how many were still due.
func (r *read) fastest() (order []candidate, answered, due int) {
	order = make([]candidate, 0, len(r.calls))
	for _, a := range r.answers {
		order = append(order, a.cand)
	}
	answered = len(order)
	for i, k := range r.calls { // the digest round's requests
		if r.trace.Requests[i].Outcome == Pending {
			order = append(order, k.cand)
		}
	}
	due = len(order) - answered
	for i, k := range r.calls {
		if r.trace.Requests[i].Outcome == Failed {
			order = append(order, k.cand)
		}
	}
	return order, answered, due
}
