package coordinator_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// stallingApply is a replica whose repair writes, while stall is set, heed
// their context but stall until it ends: a node whose write path is
// blocked, behind an RPC that passes the deadline on.
type stallingApply struct {
	replica.Replica
	stall *atomic.Bool
}

func (s stallingApply) Apply(ctx context.Context, m replica.Mutation) error {
	if s.stall.Load() {
		<-ctx.Done()
		return ctx.Err()
	}
	return s.Replica.Apply(ctx, m)
}

// repairsEnded settles the bubble and checks the repairs acknowledged and
// dropped so far.
func repairsEnded(t *testing.T, c *coordinator.Coordinator, acked, dropped int64, why string) {
	t.Helper()
	settle()
	m := c.Metrics().Total
	assert.Equal(t, acked, m.RepairsAcked, "acked: %s: %+v", why, m)
	assert.Equal(t, dropped, m.RepairsDropped, "dropped: %s: %+v", why, m)
}

// bKeys returns n keys for asyncApplyEnv's moreOnB: b0, b1, ….
func bKeys(n int) []string {
	ks := make([]string, n)
	for i := range ks {
		ks[i] = fmt.Sprint("b", i)
	}
	return ks
}

// observeRepairs returns cfg with an Observer that sends every
// RepairEvent to events.
func observeRepairs(events chan<- coordinator.RepairEvent, cfg coordinator.Config) coordinator.Config {
	cfg.Observer = coordinator.ObserverFuncs{Repair: func(e coordinator.RepairEvent) { events <- e }}
	return cfg
}

// queueBehindB reads key, k2 and onB at ALL, each read queueing a repair
// of B, then k3, which queues one of C behind them: 2 ms a read.
func queueBehindB(t *testing.T, c *coordinator.Coordinator, onB []string) {
	t.Helper()
	for _, k := range append([]string{key, k2}, onB...) {
		require.Equal(t, []string{B}, readAll(t, c, k).Trace.Repaired)
	}
	require.Equal(t, []string{C}, readAll(t, c, k3).Trace.Repaired)
}

// Once an ASYNC write to a replica fails at its deadline, the queue drops
// that replica's repairs while one is running and for a read timeout
// after, with a *RepairTimingOutError, then sends one as a probe. C's
// repair, queued behind twelve to B, is applied at 102 ms, when B's first
// write times out; it waited 1.2 s, each of B's a read timeout on the one
// worker, and with a stream of them never (found by review). A probe
// that returns in time ends it.
func TestAsyncRepairsToATimingOutReplicaHoldItsWorkerOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		more := bKeys(10)
		stall := new(atomic.Bool)
		stall.Store(true)
		events := make(chan coordinator.RepairEvent, 16)
		c := asyncApplyEnv(t, observeRepairs(events, coordinator.Config{}),
			func(r replica.Replica) replica.Replica { return stallingApply{r, stall} }, more...)
		queueBehindB(t, c, more)

		time.Sleep(ms(110) - ms(26)) // to 110 ms: 13 reads of 2 ms
		settle()
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsFailed, "B's first write, at its deadline: %+v", m)
		assert.Equal(t, int64(11), m.RepairsDropped, "B's others: %+v", m)
		assert.Equal(t, int64(1), m.RepairsAcked, "C's repair: %+v", m)
		require.Len(t, events, 13)
		for range 13 {
			e := <-events
			var te *coordinator.RepairTimingOutError
			if e.Dropped {
				require.ErrorAs(t, e.Err, &te, "%+v", e)
				assert.Equal(t, B, te.Endpoint.ID)
			}
		}

		// Within a read timeout of the last, B is sent nothing; then one
		// write, which answers in time, and B is written as before.
		stall.Store(false)
		readAll(t, c, key)
		settle()
		assert.Equal(t, int64(12), c.Metrics().Total.RepairsDropped, "90 ms after B's write timed out")
		time.Sleep(ms(100))
		readAll(t, c, key)
		readAll(t, c, k2)
		time.Sleep(ms(10)) // B's write takes its latency
		repairsEnded(t, c, 3, 12, "the probe and the write after it")
	})
}

// A write that returns after its worker gave up on it leaves its replica
// timing out from then: B answers at 250 ms, after its worker gave up at
// 202 ms, and its next repair is dropped, where it took the worker for two
// read timeouts again, and a replica answering each write just too late
// held every worker, over and over (found by review).
func TestAsyncRepairReturnedAfterItWasGivenUpOnHoldsItsReplicaOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		events := make(chan coordinator.RepairEvent, 8)
		c, release := hungApplyEnv(t, coordinator.Config{
			Observer: coordinator.ObserverFuncs{Repair: func(e coordinator.RepairEvent) { events <- e }}})
		require.Equal(t, []string{B}, readAll(t, c, key).Trace.Repaired)
		time.Sleep(ms(248))
		release()
		settle()
		require.Equal(t, int64(1), c.Metrics().Total.RepairsAbandoned)

		require.Equal(t, []string{B}, readAll(t, c, k2).Trace.Repaired)
		require.Equal(t, []string{C}, readAll(t, c, k3).Trace.Repaired)
		time.Sleep(ms(10))
		settle()
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsDropped, "B's second repair: %+v", m)
		assert.Equal(t, int64(1), m.RepairsAcked, "C's: %+v", m)
		require.Len(t, events, 2)
		e := <-events
		var te *coordinator.RepairTimingOutError
		assert.Equal(t, k2, e.Key)
		assert.ErrorAs(t, e.Err, &te)
	})
}

// lateApply is a replica whose repair writes ignore their context, take d,
// and are applied.
type lateApply struct {
	replica.Replica
	d time.Duration
}

func (s lateApply) Apply(ctx context.Context, m replica.Mutation) error {
	time.Sleep(s.d)
	return s.Replica.Apply(context.WithoutCancel(ctx), m)
}

// Timing out is judged by when Apply returned, failed or not: a replica
// that acknowledges each write after its deadline held a worker for as
// long as one that fails at it (a success after the deadline was taken
// for an answer in time; found by review). One that answers in time is
// written as before.
func TestAsyncRepairAnsweredAfterItsDeadlineIsTimingOut(t *testing.T) {
	for _, tc := range []struct {
		took    time.Duration
		dropped int64
	}{{ms(90), 0}, {ms(110), 1}, {ms(150), 1}} {
		t.Run(tc.took.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := asyncApplyEnv(t, coordinator.Config{},
					func(r replica.Replica) replica.Replica { return lateApply{r, tc.took} })
				require.Equal(t, []string{B}, readAll(t, c, key).Trace.Repaired)
				require.Equal(t, []string{B}, readAll(t, c, k2).Trace.Repaired)
				time.Sleep(time.Second)
				settle()
				m := c.Metrics().Total
				assert.Equal(t, tc.dropped, m.RepairsDropped, "%+v", m)
				assert.Equal(t, 2-tc.dropped, m.RepairsAcked, "%+v", m)
			})
		})
	}
}
