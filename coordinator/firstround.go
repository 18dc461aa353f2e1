package coordinator

import "time"

// dataAndDigests is Cassandra's first round: a data request to the closest
// contact, digest requests to the others, and one speculative request if
// the read is not complete by the threshold (or sooner, once failures
// leave it no other way to complete).
func (r *read) dataAndDigests(sent time.Time) error {
	r.newRound(PhaseInitial, len(r.plan.order), true, r.hedging)
	extra := r.decideAlways()
	if r.always { // it asked the Liveness view for a target: the coordinator's time too
		sent = r.now()
		if r.outOfTime(sent) { // its deadline passed, or its caller gave up
			r.refund()
			return errSentNothing
		}
	}
	r.sendContacts(extra, sent)
	r.armSpeculation(r.start, r.threshold) // while the replicas work
	return r.gather()
}

// sendContacts sends the initial requests. Under ALWAYS one more goes out
// up front when extra, and two of them are data requests so that any
// blockFor answers include data, as Cassandra's AlwaysSpeculatingReadExecutor
// asks (Cassandra asks one when the extra takes the last live candidate).
// The extra is not sent, and its draw is refunded, when contacts refused
// unsent leave too few candidates to complete the round. They are timed
// from sent, after planning (see run).
func (r *read) sendContacts(extra bool, sent time.Time) {
	for i, cand := range r.plan.order[:r.plan.contacts] {
		kind := KindDigest
		if i == 0 || (i == 1 && extra) {
			kind = KindData
		}
		r.send(cand, kind, false, sent)
	}
	if !extra {
		return // no target to look for: the search asks the Liveness view
	}
	if r.rd.refused > 0 && r.standInsFallShort() {
		r.refund() // it would stand in for nothing: the round fails (see speculate)
		return
	}
	cand, ok := r.speculationTarget()
	if !ok { // the Liveness view convicted it since decideAlways
		r.refund()
		r.suppressed(&r.trace.Hedge, r.allowed(false))
		return
	}
	kind := KindDigest
	if r.plan.contacts == 1 {
		kind = KindData
	}
	r.sendHedge(r.claimRemoteProbe(cand), kind)
}

// decideAlways settles, before anything is sent, whether ALWAYS's extra
// request goes out; either way it is the first round's one speculative
// action.
func (r *read) decideAlways() bool {
	if !r.rd.maySpeculate || !r.always {
		return false
	}
	r.rd.maySpeculate = false
	cause := r.allowed(r.nextLive(r.plan.contacts) < len(r.plan.order))
	// Held back before anything is sent, it must not also stop the
	// replacement of a request about to be refused unsent, which adds no
	// load and which every other policy sends; sent, it makes up for one
	// refusal only (see mayStandIn).
	r.rd.mayReplace = cause != NoCandidate
	return !r.suppressed(&r.trace.Hedge, cause)
}
