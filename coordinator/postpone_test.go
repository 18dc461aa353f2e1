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
)

// heldRead runs a QUORUM read of key while the coordinator's goroutines
// take up the requests that hold picks only at release, after the start of
// the read; before letting them go it calls meanwhile, if any. It returns
// the result and how long the read took (until release at the least).
//
// Three holding workers a stripe: a request sent when its round's first
// two answer finds their workers busy until they park again, and with only
// two it started at once on a new, unheld goroutine whenever the read sent
// it first (one run in a few hundred under load).
func (e *env) heldRead(t *testing.T, hold func(coordinator.HeldCall) bool, release time.Duration, meanwhile func()) (coordinator.Result, time.Duration) {
	t.Helper()
	held := make(chan struct{})
	coordinator.HoldWorkers(e.c, 3, hold, held)
	start := time.Now()
	results, errs := make(chan coordinator.Result, 1), make(chan error, 1)
	go func() {
		r, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		results <- r
		errs <- err
	}()
	time.Sleep(release)
	if meanwhile != nil {
		synctest.Wait()
		meanwhile()
	}
	close(held)
	res := <-results
	require.NoError(t, <-errs)
	return res, time.Since(start)
}

// postponedOnce asserts that speculation h of res, traced as what, was put
// off once and not sent, and returns the coordinator's metrics once the
// read's requests have settled.
func (e *env) postponedOnce(t *testing.T, res coordinator.Result, h coordinator.HedgeTrace, what string) coordinator.TableMetrics {
	t.Helper()
	assert.False(t, h.Fired)
	assert.Equal(t, 1, h.Postponed)
	assert.Contains(t, res.Trace.String(), what+" postponed 1×")
	settle()
	m := e.c.Metrics().Total
	assert.Equal(t, int64(1), m.PostponedSpeculations)
	return m
}

// every holds every request; repairWrites only repair writes.
func every(coordinator.HeldCall) bool          { return true }
func repairWrites(k coordinator.HeldCall) bool { return k.Mutation }

// The replicas answer in 1 ms, but the coordinator's goroutines do not take
// up the read's requests until 70 ms: at the 50 ms threshold no request has
// reached its replica, so a hedge would only wait behind them. The read
// puts it off and ends at 71 ms, when its answers arrive, without one.
func TestNoHedgeWhileTheRequestsWaitForTheCoordinator(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "50ms")})
		res, took := e.heldRead(t, every, ms(70), func() {
			m := e.c.Metrics().Total
			assert.Zero(t, m.SpeculativeRetries, "hedged while its requests had not started")
			assert.Equal(t, int64(1), m.PostponedSpeculations)
			assert.Zero(t, e.totalReads(), "no replica was asked anything yet")
		})
		assert.Equal(t, ms(71), took)
		m := e.postponedOnce(t, res, res.Trace.Hedge, "hedge")
		assert.Zero(t, m.SpeculativeRetries)
		assert.Equal(t, int64(2), e.totalReads(), "no extra request")
	})
}

// As above, but A is slow too (200 ms) once its request starts at 70 ms.
// The hedge put off at 50 ms goes a threshold later, at 100 ms, when every
// request has been at its replica for a while, and C's answer ends the read.
func TestAPostponedHedgeGoesAThresholdLater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "50ms")})
		e.behave(t, A, constant(ms(200)))
		res, took := e.heldRead(t, every, ms(70), nil)
		assert.Equal(t, ms(101), took)
		h := res.Trace.Hedge
		assert.True(t, h.Fired)
		assert.Equal(t, ms(100), h.At)
		assert.Equal(t, C, h.To)
		assert.Equal(t, 1, h.Postponed)
		assert.Equal(t, int64(1), e.c.Metrics().Total.PostponedSpeculations)
	})
}

// The repair round's speculation waits in the same way. A holds val1 and B
// val2 (newDisagreeingEnv), so the read repairs A, whose write the
// coordinator's goroutines do not start until 9 ms: at the additional-write
// threshold (5 ms after the write was sent at 2 ms) no write goes to C, and
// A's acknowledgement ends the read at 10 ms.
func TestNoAdditionalWritesWhileTheRepairWaitsForTheCoordinator(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newDisagreeingEnv(t, "5ms")
		res, took := e.heldRead(t, repairWrites, ms(9), nil)
		assert.Equal(t, ms(10), took)
		assert.True(t, res.Partition.Equal(row(key, "val2", 20)))
		m := e.postponedOnce(t, res, res.Trace.AdditionalWrite, "additional writes")
		assert.Zero(t, m.AdditionalWrites)
		assert.Zero(t, e.stats(C).Mutations, "C was written nothing")
	})
}

// The reconcile round's speculation waits in the same way. A holds v1, B
// and C v2; at the mismatch at 1 ms the reconcile round asks B for data,
// which the coordinator's goroutines do not start until 15 ms. At the 10 ms
// threshold (11 ms) C is not asked: B's request has not reached B. B
// answers at 16 ms and A is repaired by 17 ms.
func TestNoReconcileHedgeWhileItsReadWaitsForTheCoordinator(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms")})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B, C))
		reconcileRead := func(k coordinator.HeldCall) bool { return k.Replica == B && !k.DigestOnly && !k.Mutation }
		res, took := e.heldRead(t, reconcileRead, ms(15), nil)
		assert.Equal(t, ms(17), took)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		m := e.postponedOnce(t, res, res.Trace.ReconcileHedge, "reconcile read")
		assert.Zero(t, m.ReconcileSpeculations)
		assert.Zero(t, e.stats(C).Reads, "C was asked nothing")
	})
}

// A 0 ms threshold puts nothing off: there is no later threshold to wait
// for, so the hedge goes at once even though the coordinator's goroutines
// have not taken up the read's requests (see postponeSpeculation). The
// test waits for the hedge itself, the third request the held workers
// take, and gives up after a minute only if it never comes. Not in a
// bubble: code that re-armed a 0 ms wait would spin without letting a
// bubble's clock move, and hang the test instead of failing it.
func TestAZeroThresholdIsNeverPostponed(t *testing.T) {
	e := newEnv(t, coordinator.Config{DefaultTable: policy(t, hedgeAtOnce)})
	taken, release := make(chan struct{}, 3), make(chan struct{})
	coordinator.HoldWorkers(e.c, 3, func(coordinator.HeldCall) bool {
		select {
		case taken <- struct{}{}:
		default:
		}
		return true
	}, release)
	results := make(chan coordinator.Result, 1)
	go func() {
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.NoError(t, err)
		results <- res
	}()
	for i := range 3 {
		select {
		case <-taken:
		case <-time.After(time.Minute):
			close(release)
			<-results
			t.Fatalf("the hedge was not sent: the workers took %d of the 3 requests", i)
		}
	}
	close(release)
	res := <-results
	h := res.Trace.Hedge
	assert.True(t, h.Fired, "%s", res.Trace)
	assert.Equal(t, 0, h.Postponed, "%s", res.Trace)
	assert.Zero(t, e.c.Metrics().Total.PostponedSpeculations)
}
