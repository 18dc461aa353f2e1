package coordinator

import "context"

// digestFirst is DataStax Enterprise's strategy, for levels that need more
// than one replica: ask every live candidate for a digest, wait for
// blockFor of them, then ask the fastest for the data. If that data request
// fails, or has not answered after the threshold, the next fastest is asked
// (the hedge, under the same budget); with no one left the read fails by
// the level. The threshold counts from the data request, not from the
// start of the read: the table's threshold is a percentile of whole first
// rounds, digests included, so this hedges conservatively.
func (r *read) digestFirst(ctx context.Context) error {
	speculate := r.speculate
	r.speculate = false // no hedging while the digests come in
	for _, cand := range r.plan.order {
		r.send(ctx, cand, KindDigest, PhaseInitial, r.start)
	}
	r.startTimer(r.start)
	r.next = len(r.plan.order)
	stop := r.parent.Done()
	if err := r.gather(ctx, stop, r.plan.blockFor, false); err != nil {
		return err
	}
	r.speculate = speculate
	r.plan.order = r.fastest()
	r.next = 1
	r.send(ctx, r.plan.order[0], KindData, PhaseInitial, now())
	if r.always && r.speculate {
		r.hedge(ctx) // ALWAYS: the second fastest is asked for data at once
	}
	if r.speculate && !r.hedged {
		r.setTimer(r.threshold, true)
	}
	return r.gather(ctx, stop, r.plan.blockFor, true)
}

// fastest returns the candidates that answered the digest round, fastest
// first: the order the data request and its hedge follow.
func (r *read) fastest() []candidate {
	order := make([]candidate, 0, len(r.answers))
	for _, a := range r.answers {
		order = append(order, a.cand)
	}
	return order
}
