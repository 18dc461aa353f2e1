package coordinator_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// hangingApply is a replica whose repair writes ignore their context and
// return only once release is closed.
type hangingApply struct {
	replica.Replica
	release <-chan struct{}
}

func (h hangingApply) Apply(context.Context, replica.Mutation) error {
	<-h.release
	return nil
}

// hungApplyEnv is newEnv's cluster read through one ASYNC repair worker,
// with a read timeout of 100 ms, B's repair writes hanging until the
// returned func releases them; key, k2 and moreOnB are stale on B, k3 on
// C.
func hungApplyEnv(t *testing.T, cfg coordinator.Config, moreOnB ...string) (*coordinator.Coordinator, func()) {
	release := make(chan struct{})
	c := asyncApplyEnv(t, cfg, func(r replica.Replica) replica.Replica { return hangingApply{r, release} }, moreOnB...)
	return c, sync.OnceFunc(func() { close(release) })
}

// asyncApplyEnv is hungApplyEnv with B's replica wrapped by wrapB.
func asyncApplyEnv(t *testing.T, cfg coordinator.Config, wrapB func(replica.Replica) replica.Replica, moreOnB ...string) *coordinator.Coordinator {
	e := newEnv(t, coordinator.Config{})
	for _, k := range moreOnB {
		require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
		require.NoError(t, e.cluster.Seed(tbl, row(k, "v1", 10)))
		require.NoError(t, e.cluster.SeedOn(tbl, row(k, "v2", 20), A, C))
	}
	for _, k := range []string{k2, k3} {
		require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
		require.NoError(t, e.cluster.Seed(tbl, row(k, "v1", 10)))
	}
	require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
	require.NoError(t, e.cluster.SeedOn(tbl, row(k2, "v2", 20), A, C))
	require.NoError(t, e.cluster.SeedOn(tbl, row(k3, "v2", 20), A, B))
	cfg.Locator = wrapID(e.cluster, B, wrapB)
	cfg.Liveness, cfg.ReadTimeout = e.cluster, ms(100)
	if cfg.RepairWorkers == 0 {
		cfg.RepairWorkers = 1
	}
	cfg.DefaultTable = coordinator.TableOptions{ReadRepair: repair.Async}
	c, err := coordinator.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

const k2, k3 = "k2", "k3"

// slowOutcomes passes on the outcomes of requests that took over 100 ms.
type slowOutcomes chan replica.Outcome

func (s slowOutcomes) ReportOutcome(o replica.Outcome) {
	if o.Latency > ms(100) {
		s <- o
	}
}

func readAll(t *testing.T, c *coordinator.Coordinator, k string) coordinator.Result {
	t.Helper()
	res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.All})
	require.NoError(t, err)
	return res
}

// A repair write to a replica that ignores its context holds its worker a
// read timeout past the write's own (here 200 ms), not for as long as the
// replica hangs: C's repair, queued behind B's, is applied. B's is counted
// abandoned, and against B's backlog until B returns, when Outcomes is
// told.
func TestAsyncRepairToAHungReplicaHoldsNoOtherRepair(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		outcomes := slowOutcomes(make(chan replica.Outcome, 8))
		c, release := hungApplyEnv(t, coordinator.Config{Outcomes: outcomes})
		require.Equal(t, []string{B}, readAll(t, c, key).Trace.Repaired)
		require.Equal(t, []string{C}, readAll(t, c, k3).Trace.Repaired)

		time.Sleep(ms(190)) // B's write went out at 2 ms, at the end of the first read
		settle()
		m := c.Metrics().Total
		assert.Zero(t, m.RepairsAcked+m.RepairsAbandoned, "B's write is waited for until 202 ms: %+v", m)
		time.Sleep(ms(20))
		settle()
		m = c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsAbandoned, "B's write given up on: %+v", m)
		assert.Equal(t, int64(1), m.RepairsAcked, "C's repair applied after it: %+v", m)
		assert.Equal(t, int64(1), abandonedCounts(t, c)[B], "B's write counts against its backlog")
		assert.Empty(t, outcomes, "B has not returned")

		release()
		settle()
		assert.Zero(t, abandonedCounts(t, c)[B], "B returned")
		require.Len(t, outcomes, 1, "B's return is reported")
		assert.NoError(t, (<-outcomes).Err)
		require.NoError(t, c.Close())
		m = c.Metrics().Total
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned, "%+v", m)
	})
}

// A queued repair whose replica is at MaxAbandonedPerReplica is dropped,
// not sent, and the Observer told why: B's second repair, queued while
// its first hung, once the worker gave up on the first.
func TestAsyncRepairToABackloggedReplicaIsDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		events := make(chan coordinator.RepairEvent, 8)
		c, release := hungApplyEnv(t, coordinator.Config{MaxAbandonedPerReplica: 1,
			Observer: coordinator.ObserverFuncs{Repair: func(e coordinator.RepairEvent) { events <- e }}})
		defer release()
		require.Equal(t, []string{B}, readAll(t, c, key).Trace.Repaired)
		require.Equal(t, []string{B}, readAll(t, c, k2).Trace.Repaired)
		time.Sleep(time.Second)
		settle()

		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsAbandoned, "%+v", m)
		assert.Equal(t, int64(1), m.RepairsDropped, "%+v", m)
		require.Len(t, events, 1, "the abandoned write has no event; the dropped one has")
		e := <-events
		assert.True(t, e.Dropped)
		assert.Equal(t, k2, e.Key)
		var be *coordinator.BacklogError
		require.ErrorAs(t, e.Err, &be)
		assert.Equal(t, int64(1), be.Abandoned)
	})
}

// While a replica holds an ASYNC write its worker gave up on, the queue's
// other repairs to it are dropped: a replica stale on a stream of reads
// holds a worker once, not two read timeouts per repair. Here C's repair,
// queued behind twelve to B, is applied when the worker gives up on B's
// first, at 202 ms; it waited 2.4 s (found by review).
func TestAsyncRepairsToAHungReplicaHoldItsWorkerOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var more []string
		for i := range 10 {
			more = append(more, fmt.Sprint("b", i))
		}
		c, release := hungApplyEnv(t, coordinator.Config{}, more...)
		defer release()
		for _, k := range append([]string{key, k2}, more...) {
			require.Equal(t, []string{B}, readAll(t, c, k).Trace.Repaired)
		}
		require.Equal(t, []string{C}, readAll(t, c, k3).Trace.Repaired)

		time.Sleep(ms(180)) // to 206 ms: 13 reads of 2 ms
		settle()
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsAcked, "C's repair: %+v", m)
		assert.Equal(t, int64(1), m.RepairsAbandoned, "B's first write: %+v", m)
		assert.Equal(t, int64(11), m.RepairsDropped, "B's others: %+v", m)
		release()
		settle()
		assert.Zero(t, abandonedCounts(t, c)[B])
	})
}
