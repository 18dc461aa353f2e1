package coordinator

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// A replica's refusal for tombstones fails the read whether the read's
// goroutine takes it as it comes or late, behind a tick, with the answers
// that would complete the round waiting after it: the refusal came first
// either way.
func TestARefusalForTombstonesWaitingBehindATickFailsTheRead(t *testing.T) {
	for _, late := range []bool{false, true} {
		refusal := &replica.TombstoneOverwhelmingError{Tombstones: 11, Threshold: 10}
		errs := func(_ *read, i int) error {
			if i == 2 {
				return refusal
			}
			return nil
		}
		r := roundSent(time.Hour, 2, []RequestKind{KindData, KindDigest, KindDigest}, errs)
		if late {
			r.rd.armed = true
			r.rd.ch <- tick
		}
		r.rd.ch <- 2
		r.rd.ch <- 0
		r.rd.ch <- 1

		err := gatherAndEnd(r)
		var failure *consistency.ReadFailureError
		require.True(t, errors.As(err, &failure), "late %v: %v", late, err)
		require.Equal(t, 1, failure.Failures, "late %v", late)
		require.ErrorIs(t, failure.Reasons["c"], replica.ErrTombstoneOverwhelming, "late %v", late)
		// Nor does it look for a replica to speculate to first, booking a
		// hedge that was not due: the refusal is in.
		require.Zero(t, r.trace.Hedge, "late %v", late)
	}
}

// A read's Trace.Tombstones is the most tombstones any replica's scan met,
// a refusal's included (bookTombstones): of two refusals the read takes in
// turn, as when its caller gave up with both waiting (acceptAnswered), the
// larger is kept, whichever came first.
func TestTheLargestRefusalForTombstonesIsTraced(t *testing.T) {
	for _, counts := range [][2]int{{20, 12}, {12, 20}} {
		r := &read{readState: readState{c: &Coordinator{}, t: &table{},
			parent: context.Background(), req: Request{Level: consistency.Quorum}}}
		r.ctx = newReadContext(context.Background(), time.Now().Add(time.Hour))
		r.plan.blockFor = 2
		r.newRound(PhaseInitial, 2, true, false)
		for i, n := range counts {
			refusal := &replica.TombstoneOverwhelmingError{Tombstones: n, Threshold: 10}
			k := &call{idx: i, err: refusal}
			k.cand.ep.ID = string(rune('a' + i))
			r.calls = append(r.calls, k)
			r.trace.Requests = append(r.trace.Requests, RequestTrace{Kind: KindDigest})
			r.rd.sent(&k.cand, false)
		}
		r.accept(0)
		r.accept(1)
		r.bookTombstones()
		r.ctx.cancel(nil)
		require.Equal(t, 20, r.trace.Tombstones, "refusals of %v", counts)
	}
}
