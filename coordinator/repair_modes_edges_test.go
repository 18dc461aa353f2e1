package coordinator_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
)

// The repair modes: ASYNC's bounded queue and observer, NONE,
// additional writes to a replica whose data the read did not merge.

type rvEvents struct {
	mu sync.Mutex
	ev []coordinator.RepairEvent
}

func (l *rvEvents) observer() coordinator.ObserverFuncs {
	return coordinator.ObserverFuncs{Repair: func(e coordinator.RepairEvent) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.ev = append(l.ev, e)
	}}
}

func (l *rvEvents) all() []coordinator.RepairEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]coordinator.RepairEvent(nil), l.ev...)
}

// ASYNC with a queue of one and one worker, B's writes hanging (reads at
// ALL, so that the snitch cannot leave B out): the first
// repair runs, the second waits in the queue, the third is dropped and
// counted, and no read waits. Every repair sent ends counted: acked,
// failed or dropped.
func TestAsyncRepairQueueFullDrops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Async)
		var evs rvEvents
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Async), map[string]rvWrap{B: {hangApply: true}},
			coordinator.Config{RepairQueue: 1, RepairWorkers: 1, Observer: evs.observer()})

		for i := range 3 {
			res, took, err := e.read(consistency.All)
			require.NoError(t, err, "read %d", i)
			assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
			assert.Equal(t, ms(2), took, "read %d does not wait for its repair", i)
			assert.Equal(t, []string{B}, res.Trace.Repaired)
			synctest.Wait() // the worker takes what it can
		}
		m := e.c.Metrics().Total
		assert.Equal(t, int64(3), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsDropped)
		got := evs.all()
		require.Len(t, got, 1)
		assert.True(t, got[0].Dropped)
		assert.Equal(t, repair.Async, got[0].Mode)
		assert.Equal(t, B, got[0].To.ID)
		assert.True(t, got[0].Mutation.Equal(row(key, "v2", 20)))
		require.Len(t, log.of(B), 1, "one write running, one queued")

		// The running write times out at the read timeout; then the queued
		// one is dropped, B's last write having just timed out (see
		// RepairTimingOutError).
		time.Sleep(ms(5000))
		synctest.Wait()
		m = e.c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsFailed)
		assert.Equal(t, int64(2), m.RepairsDropped)
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned)
		assert.Len(t, log.of(B), 1)
		got = evs.all()
		require.Len(t, got, 3)
		assert.Error(t, got[1].Err)
		assert.Equal(t, ms(5000), got[1].Took)
		var te *coordinator.RepairTimingOutError
		assert.True(t, got[2].Dropped)
		assert.ErrorAs(t, got[2].Err, &te)
	})
}

// ASYNC: the observer hears of the repair once it is acknowledged, with
// what was sent; the read had returned before.
func TestAsyncRepairObserved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Async)
		var evs rvEvents
		rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.Async), nil, coordinator.Config{Observer: evs.observer()})
		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(2), took)
		assert.Equal(t, []string{B}, res.Trace.Repaired)
		assert.Empty(t, evs.all(), "not yet applied")
		time.Sleep(ms(1))
		synctest.Wait()
		got := evs.all()
		require.Len(t, got, 1)
		assert.NoError(t, got[0].Err)
		assert.False(t, got[0].Dropped)
		assert.Equal(t, repair.Async, got[0].Mode)
		assert.Equal(t, ms(1), got[0].Took)
		assert.Equal(t, "v2", valueOn(t, e, B))
	})
}

// NONE without a limit, at ALL with two stale replicas: the merge is
// returned, nothing is written, no repair event.
func TestNoneAtAllWritesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B))
		var evs rvEvents
		log := rvEnv(t, e, rvOpts(t, "NEVER", "NEVER", repair.None), nil, coordinator.Config{Observer: evs.observer()})
		res, took, err := e.read(consistency.All)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.Equal(t, ms(2), took)
		assert.True(t, res.Trace.DigestMismatch)
		assert.Empty(t, res.Trace.Repaired)
		settle()
		assert.Empty(t, log.of(A))
		assert.Empty(t, log.of(C))
		assert.Empty(t, evs.all())
		assert.Equal(t, "v1", valueOn(t, e, A))
	})
}

// B answers its digest, then hangs on its data read; the reconcile round
// speculates to C, which is stale too and whose repair write hangs. The
// additional write then goes to B, a replica the read contacted but whose
// data it did not merge, and B's acknowledgement completes the level.
func TestAdditionalWriteToDigestOnlyReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))
		log := rvEnv(t, e, rvOpts(t, "10ms", "20ms", repair.Blocking),
			map[string]rvWrap{B: {hangData: true}, C: {hangApply: true}},
			coordinator.Config{HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.True(t, res.Trace.ReconcileHedge.Fired)
		assert.Equal(t, C, res.Trace.ReconcileHedge.To)
		assert.Equal(t, []string{C}, res.Trace.Repaired)
		assert.True(t, res.Trace.AdditionalWrite.Fired)
		assert.True(t, res.Trace.AdditionalWrite.Won)
		assert.Equal(t, B, res.Trace.AdditionalWrite.To)
		// digest 1, mismatch; reconcile threshold 10 ms -> C at 11, data 12;
		// writes at 12, additional write at 32, acked at 33.
		assert.Equal(t, ms(33), took)
		require.Len(t, log.of(B), 1)
		assert.True(t, log.of(B)[0].Equal(row(key, "v2", 20)))
		assert.Equal(t, "v2", valueOn(t, e, B))
	})
}
