package coordinator

import (
	"fmt"

	"github.com/readpath/readpath/replica"
)

// defaultMaxAbandoned is Config.MaxAbandonedPerReplica's default: far
// above what a replica that returns when its request is cancelled ever
// holds, and about 8 MiB of goroutine stacks for one that never returns.
const defaultMaxAbandoned = 1024

// BacklogError is the failure recorded for a request the coordinator did
// not send: its replica still runs Abandoned requests that earlier reads
// gave up on (cancelled, or past their deadline), as many as
// Config.MaxAbandonedPerReplica allows. A replica that ignores its context
// holds a goroutine for each such request; past the cap it is sent nothing
// until some return, and the read goes on as after any failure (a hedge to
// another replica, at EACH_QUORUM one of its datacenter, or a
// *consistency.ReadFailureError naming this one). A hedge that replaces a
// refused request draws on no budget: it sends no more than the read would
// have. None is sent when the replicas left free cannot make up what the
// round lacks (per datacenter at EACH_QUORUM): the read fails at once, its
// action traced and counted as NoCandidate. A replica at the cap is no
// speculation target: the round's one speculative request goes to another.
// The refused request is in the read's trace, failed with it, and in its
// table's DataRequests or DigestRequests, but not in its replica's Requests
// (it was not sent); the snitch and Config.Outcomes hear nothing of it. A
// queued ASYNC repair is dropped, with this error in its RepairEvent, when
// its replica is at the cap or holds an ASYNC repair write given up on:
// Abandoned then counts that write too, and may be below the cap (1, for
// one such write to a replica no read has abandoned a request to). It is
// not modified once made and is safe for concurrent reads.
type BacklogError struct {
	Endpoint  replica.Endpoint
	Abandoned int64
}

func (e *BacklogError) Error() string {
	return fmt.Sprintf("coordinator: request to %s not sent: %d requests abandoned to it are still running",
		e.Endpoint.ID, e.Abandoned)
}

// backlogged returns how many abandoned requests sc's replica holds, and
// whether that is as many as the coordinator allows.
func (c *Coordinator) backlogged(sc *score) (int64, bool) {
	limit := c.cfg.MaxAbandonedPerReplica
	if limit < 0 {
		return 0, false
	}
	n := sc.abandoned.Load()
	return n, n >= int64(limit)
}

// refuseBacklogged fails k at once, unsent, when its replica holds as
// many abandoned requests as the coordinator allows, and reports whether
// it did. The read's goroutine plays the worker's part and accepts the
// failure itself: queued on the round's channel, behind answers that
// complete the round, it would be left there, and the request traced as
// sent and cancelled.
func (r *read) refuseBacklogged(k *call) bool {
	n, full := r.c.backlogged(k.cand.score)
	if !full {
		return false
	}
	k.err, k.at = &BacklogError{Endpoint: k.cand.ep, Abandoned: n}, k.sent
	k.returned.Store(true) // nothing runs: no replica to wait for, nothing to score
	k.markScored()
	k.dropByWorker()
	r.rd.refused++
	r.accept(k.idx)
	return true
}
