package coordinator

import (
	"context"
	"time"
)

// dataAndDigests is Cassandra's first round: a data request to the closest
// contact, digest requests to the others, one hedge if the read is not
// complete by the threshold (or sooner, once failures leave it no other
// way to complete).
func (r *read) dataAndDigests(ctx context.Context) error {
	r.decideAlways()
	r.sendContacts(ctx, r.start)
	r.startTimer(r.start) // while the replicas work
	return r.gather(ctx, r.parent.Done(), r.plan.blockFor, true)
}

// sendContacts sends the initial requests. Under ALWAYS one more goes out
// up front, budget permitting, and, as in Cassandra, two of them are data
// requests so that any blockFor answers include data.
func (r *read) sendContacts(ctx context.Context, at time.Time) {
	for i, cand := range r.plan.order[:r.plan.contacts] {
		kind := KindDigest
		if i == 0 || (i == 1 && r.extra) {
			kind = KindData
		}
		r.send(ctx, cand, kind, PhaseInitial, at)
	}
	if r.extra {
		kind := KindDigest
		if r.plan.contacts == 1 {
			kind = KindData
		}
		r.sendHedge(ctx, kind)
	}
}

// decideAlways settles, before anything is sent, whether ALWAYS's extra
// request goes out; either way it is the read's one speculative request.
func (r *read) decideAlways() {
	r.next = r.plan.contacts
	if r.speculate && r.always {
		r.hedged = true
		r.extra = r.hedgeAllowed() == NotSuppressed
	}
}

// done reports whether need answers arrived, one of them data if needData.
func (r *read) done(need int, needData bool) bool {
	return r.received >= need && (r.dataIn || !needData)
}

// reachable reports whether the requests still out can make done true.
func (r *read) reachable(need int, needData bool) bool {
	return r.received+r.outstanding >= need && (r.dataIn || r.outData > 0 || !needData)
}

// gather waits for answers of the current phase until need arrived (one of
// them data if needData), or until stop is closed. It hedges when the
// timer ticks, or at once when the requests still out can no longer
// succeed, and fails when even a hedge cannot help.
func (r *read) gather(ctx context.Context, stop <-chan struct{}, need int, needData bool) error {
	for !r.done(need, needData) {
		if !r.reachable(need, needData) {
			if r.ctx.Err() != nil {
				// The deadline or the caller ended the read, and the
				// replicas failed because of it: not their failure.
				return r.interrupted(r.dataIn)
			}
			if r.speculate && !r.hedged {
				r.hedge(ctx)
				continue
			}
			return r.failure(r.dataIn)
		}
		idx, ok := r.receive(stop)
		switch {
		case !ok:
			return r.interrupted(r.dataIn)
		case idx != tick:
			r.accept(idx)
		case r.ctx.Err() != nil: // the deadline
			return r.interrupted(r.dataIn)
		default: // the hedge threshold, if the timer was set for it
			if r.hedgeArmed {
				r.hedge(ctx)
			}
			r.setTimer(time.Until(r.ctx.deadline), false)
		}
	}
	return nil
}

// receive waits for the next answer or tick, or for stop to close. Without
// a stop channel (a caller's context that cannot be cancelled) it is a
// plain receive: the cheapest wait there is.
func (r *read) receive(stop <-chan struct{}) (int, bool) {
	if stop == nil {
		return <-r.ch, true
	}
	select {
	case idx := <-r.ch:
		return idx, true
	case <-stop:
		return 0, false
	}
}
