package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

// stalledPhase is a QUORUM read of A and B, at NEVER, whose one request of
// phase stalls from 1 or 2 ms on: B's reconcile read (B answered its
// digest, A's data differs), or B's repair write (B is stale). Either way
// one replica, A, holds what the read has.
type stalledPhase struct {
	phase coordinator.Phase
	setup func(t *testing.T) *env
}

var stalledPhases = []stalledPhase{
	{coordinator.PhaseReconcile, func(t *testing.T) *env {
		return newStallingEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
	}},
	{coordinator.PhaseRepair, func(t *testing.T) *env {
		e, _ := newStaleEnv(t, repair.Blocking)
		never, err := latency.ParseSpeculativeRetry("NEVER")
		require.NoError(t, err)
		require.NoError(t, e.c.SetTableOptions(tbl, coordinator.TableOptions{ReadRepair: repair.Blocking,
			SpeculativeRetry: never, AdditionalWritePolicy: never}))
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2), End: ms(60_000)}}})
		return e
	}},
}

// The caller's deadline, passing while a later round waits, fails the read
// with a timeout carrying that round's figures: of the two replicas the
// level needs, one (A) holds the result, the other's request is pending in
// that phase; data was in. It counts as a timeout, not a cancellation.
func TestCallerDeadlineInALaterRound(t *testing.T) {
	for _, p := range stalledPhases {
		t.Run(p.phase.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := p.setup(t)
				ctx, cancel := context.WithTimeout(context.Background(), ms(20))
				defer cancel()
				start := time.Now()
				res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				assert.Equal(t, ms(20), time.Since(start))
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout)
				assert.ErrorIs(t, err, context.DeadlineExceeded)
				assert.Equal(t, consistency.Quorum, timeout.Level)
				assert.Equal(t, 2, timeout.BlockFor)
				assert.Equal(t, 1, timeout.Received, "A's")
				assert.True(t, timeout.DataPresent)
				assertStalledIn(t, res.Trace, p.phase)
				m := e.c.Metrics().Total
				assert.Equal(t, int64(1), m.Timeouts)
				assert.Zero(t, m.Cancelled)
			})
		})
	}
}

// The caller's cancellation while a later round waits is no timeout: the
// error wraps context.Canceled, and counts as a cancellation.
func TestCallerCancellationInALaterRound(t *testing.T) {
	for _, p := range stalledPhases {
		t.Run(p.phase.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := p.setup(t)
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(ms(20), cancel)
				start := time.Now()
				res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				assert.Equal(t, ms(20), time.Since(start))
				require.ErrorIs(t, err, context.Canceled)
				var timeout *consistency.ReadTimeoutError
				assert.NotErrorAs(t, err, &timeout)
				var failure *consistency.ReadFailureError
				assert.NotErrorAs(t, err, &failure)
				assertStalledIn(t, res.Trace, p.phase)
				m := e.c.Metrics().Total
				assert.Equal(t, int64(1), m.Cancelled)
				assert.Zero(t, m.Timeouts)
				assert.Zero(t, m.RepairsTimedOut)
			})
		})
	}
}

// assertStalledIn checks that the trace's last request, B's, is the one
// pending, in phase, and that every request before it was answered and
// none speculative.
func assertStalledIn(t *testing.T, tr coordinator.Trace, phase coordinator.Phase) {
	t.Helper()
	require.NotEmpty(t, tr.Requests)
	last := tr.Requests[len(tr.Requests)-1]
	assert.Equal(t, B, last.Endpoint, tr.String())
	assert.Equal(t, phase, last.Phase, tr.String())
	assert.Equal(t, coordinator.Pending, last.Outcome, tr.String())
	assert.False(t, last.Used)
	for _, rt := range tr.Requests[:len(tr.Requests)-1] {
		assert.Equal(t, coordinator.Answered, rt.Outcome, tr.String())
	}
	for _, rt := range tr.Requests {
		assert.False(t, rt.Speculative, tr.String())
	}
}
