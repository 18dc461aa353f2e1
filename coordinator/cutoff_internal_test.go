package coordinator

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// The read's end cancels its requests, and a replica that honours that
// returns at once: its failure may reach the round's channel before the
// read sees its context end. Taken first, it is still a request the read
// stopped waiting for, pending, not a failure of the replica's: else a
// BLOCKING repair's write cut off by the deadline would be dropped as
// failed where it goes on to the ASYNC queue (see blockingRepair).
func TestARequestCutOffByTheReadsEndIsPending(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cancel func(r *read, caller context.CancelFunc)
		err    error // what the cut-off replica returns
		ended  error // what the read's error wraps
		// The failure arrives at the deadline itself, not after it: the
		// read's timer cancels its requests no earlier (see cutOff).
		atDeadline bool
	}{
		{"deadline", reachDeadline,
			fmt.Errorf("replica: read: %w", context.Canceled), context.DeadlineExceeded, false},
		{"deadline reported as such", reachDeadline,
			fmt.Errorf("replica: read: %w", context.DeadlineExceeded), context.DeadlineExceeded,
			false},
		{"at the deadline itself", reachDeadline,
			fmt.Errorf("replica: read: %w", context.Canceled), context.DeadlineExceeded, true},
		{"caller", func(_ *read, caller context.CancelFunc) { caller() },
			fmt.Errorf("replica: read: %w", context.Canceled), context.Canceled, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent, caller := context.WithCancel(context.Background())
			defer caller()
			r := cutOffRead(parent)
			defer r.ctx.cancel(nil)
			tc.cancel(r, caller)
			r.calls[1].err, r.calls[1].at = tc.err, time.Now()
			if tc.atDeadline {
				r.calls[1].at = r.ctx.deadline
			}
			r.rd.ch <- 0 // A's data, answered before the end
			r.rd.ch <- 1 // B's digest, cut off by it, ahead of the tick
			r.rd.ch <- tick

			err := r.gather()
			require.ErrorIs(t, err, tc.ended)
			assert.Equal(t, Answered, r.trace.Requests[0].Outcome)
			rt := r.trace.Requests[1]
			assert.Equal(t, Pending, rt.Outcome, "cut off, not failed: %v", rt.Err)
			assert.NoError(t, rt.Err)
			assert.Zero(t, rt.Done)
			assert.Empty(t, r.reasons, "no replica failed")
		})
	}
}

// reachDeadline ends r at its deadline, now, as its timer does: no
// earlier.
func reachDeadline(r *read, _ context.CancelFunc) {
	r.ctx.deadline = time.Now()
	r.ctx.cancel(readDeadline)
}

// A replica's own context error while the read still waits (a deadline of
// its client's, say) is its failure.
func TestAContextErrorBeforeTheReadsEndIsAFailure(t *testing.T) {
	r := cutOffRead(context.Background())
	defer r.ctx.cancel(nil)
	own := fmt.Errorf("replica: client deadline: %w", context.DeadlineExceeded)
	r.calls[1].err, r.calls[1].at = own, time.Now()
	r.rd.ch <- 0
	r.rd.ch <- 1

	err := r.gather()
	var failure *consistency.ReadFailureError
	require.ErrorAs(t, err, &failure)
	rt := r.trace.Requests[1]
	assert.Equal(t, Failed, rt.Outcome)
	assert.ErrorIs(t, rt.Err, own)
	assert.NotZero(t, rt.Done)
}

// cutOffRead is a QUORUM read of two replicas under parent, A's data and
// B's digest sent and taken up.
func cutOffRead(parent context.Context) *read {
	c := &Coordinator{}
	c.timers.New = func() any { return new(readTimer) }
	r := &read{readState: readState{c: c, t: &table{}, parent: parent}}
	r.req.Level = consistency.Quorum
	r.start = time.Now().Add(-time.Millisecond)
	r.ctx = newReadContext(parent, time.Now().Add(time.Hour))
	r.plan.blockFor = 2
	r.newRound(PhaseInitial, 2, true, false)
	for i, kind := range []RequestKind{KindData, KindDigest} {
		k := &call{idx: i, cmd: replica.Command{DigestOnly: kind == KindDigest}}
		k.cand.ep = replica.Endpoint{ID: []string{"a", "b"}[i]}
		k.at = time.Now()
		k.started.Store(true)
		r.calls = append(r.calls, k)
		r.trace.Requests = append(r.trace.Requests, RequestTrace{Kind: kind})
		r.rd.sent(&k.cand, kind == KindData)
	}
	return r
}
