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
	r.newPhase(len(r.plan.order))
	r.decideAlways()
	timer := r.hedgeTimer()
	r.sendContacts(ctx) // last before waiting: the replicas' goroutines start on this P
	return r.gather(ctx, timer, r.plan.blockFor, true)
}

// sendContacts sends the initial requests. Under ALWAYS one more goes out
// up front, budget permitting, and, as in Cassandra, two of them are data
// requests so that any blockFor answers include data.
func (r *read) sendContacts(ctx context.Context) {
	for i, cand := range r.plan.order[:r.plan.contacts] {
		kind := KindDigest
		if i == 0 || (i == 1 && r.extra) {
			kind = KindData
		}
		r.send(ctx, cand, kind, PhaseInitial)
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
// them data if needData). It hedges when the timer fires, or at once when
// the requests still out can no longer succeed, and fails when even a hedge
// cannot help.
func (r *read) gather(ctx context.Context, timer <-chan time.Time, need int, needData bool) error {
	for !r.done(need, needData) {
		if !r.reachable(need, needData) {
			if r.speculate && !r.hedged {
				r.hedge(ctx)
				continue
			}
			return r.failure(r.dataIn)
		}
		select {
		case a := <-r.ch:
			r.accept(a)
		case <-timer:
			timer = nil
			r.hedge(ctx)
		case <-ctx.Done():
			return r.interrupted(ctx, r.dataIn)
		}
	}
	return nil
}

// hedgeTimer arms the read's hedge timer for the threshold, if the read
// may hedge, and returns its channel (nil otherwise). The timer is not
// pooled with the read state: a timer belongs to the testing/synctest
// bubble that made it, and a pooled one would cross bubbles.
func (r *read) hedgeTimer() <-chan time.Time {
	if !r.speculate || r.hedged {
		return nil
	}
	r.timer = time.NewTimer(r.threshold)
	return r.timer.C
}
