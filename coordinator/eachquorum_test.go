package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// Two datacenters of three nodes, RF {dc1: 3, dc2: 3}: EACH_QUORUM needs
// two answers in each, four in all.
const (
	d1n1 = "dc1-r1-n1"
	d1n2 = "dc1-r2-n2"
	d1n3 = "dc1-r3-n3"
	d2n1 = "dc2-r1-n1"
	d2n2 = "dc2-r2-n2"
	d2n3 = "dc2-r3-n3"
)

var twoDCs = []string{d1n1, d1n2, d1n3, d2n1, d2n2, d2n3}

// newTwoDCs builds that cluster with key on all six nodes, seeded with v1
// everywhere, the coordinator in dc1.
func newTwoDCs(t *testing.T, cfg coordinator.Config) *env {
	t.Helper()
	cfg.LocalDatacenter = "dc1"
	return newEnvOn(t, twoDCsCluster(t), cfg)
}

// twoDCsCluster is newTwoDCs' cluster.
func twoDCsCluster(t *testing.T) *replicatest.Cluster {
	t.Helper()
	return pinnedCluster(t, []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}, {Name: "dc2", Racks: 3, Nodes: 3}},
		consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}), twoDCs...)
}

// pinnedCluster builds a cluster of dcs under repl, with key pinned to ids
// in that order and seeded with v1 everywhere; every replica answers in
// 1 ms.
func pinnedCluster(t *testing.T, dcs []replicatest.Datacenter, repl consistency.Replication, ids ...string) *replicatest.Cluster {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: dcs, Replication: repl, Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, ids...))
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return cl
}

func digestFirstOptions(t *testing.T) coordinator.TableOptions {
	o := policy(t, "NEVER")
	o.Strategy = coordinator.DigestFirst
	return o
}

// EACH_QUORUM contacts the closest quorum of each datacenter: two local
// and two remote replicas, not the four closest.
func TestEachQuorumContactsAQuorumInEachDatacenter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{})
		res, took, err := e.read(consistency.EachQuorum)
		require.NoError(t, err)
		assert.Equal(t, ms(1), took)
		perDC := map[string]int{}
		for _, rt := range res.Trace.Requests {
			perDC[e.replica(rt.Endpoint).Endpoint().Datacenter]++
		}
		assert.Equal(t, map[string]int{"dc1": 2, "dc2": 2}, perDC)
	})
}

// With two of dc2's nodes not answering, no strategy may succeed at
// EACH_QUORUM: dc2 cannot give its quorum. Digest-first asks every node
// for a digest and must still count per datacenter.
func TestEachQuorumNeedsAQuorumInEachDatacenterUnderEveryStrategy(t *testing.T) {
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		t.Run(strategy.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := policy(t, "NEVER")
				o.Strategy = strategy
				e := newTwoDCs(t, coordinator.Config{DefaultTable: o, ReadTimeout: ms(50)})
				require.NoError(t, e.replica(d2n1).SetFault(replicatest.Unreachable()))
				require.NoError(t, e.replica(d2n2).SetFault(replicatest.Unreachable()))

				_, took, err := e.read(consistency.EachQuorum)
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout)
				assert.Equal(t, ms(50), took)
				assert.Equal(t, 4, timeout.BlockFor)
			})
		})
	}
}

// Digest-first asks all six nodes for digests. With two of dc2's failing,
// dc1's three answers and dc2's last one would add up to the four
// EACH_QUORUM needs, but dc2 can no longer give its quorum, and no other
// datacenter's answers stand in for it (Cassandra's EACH_QUORUM
// ReadCallback counts per datacenter): the read fails as the second failure
// comes in, not at its timeout, after dc2's slow third node answered.
func TestEachQuorumFailsOnceOneDatacenterCannotReachItsQuorum(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := coordinator.Config{DefaultTable: digestFirstOptions(t), ReadTimeout: ms(50)}
		e := newTwoDCs(t, cfg)
		require.NoError(t, e.replica(d2n1).SetFault(replicatest.ErrorAfter(ms(2), nil)))
		require.NoError(t, e.replica(d2n2).SetFault(replicatest.ErrorAfter(ms(2), nil)))
		require.NoError(t, e.replica(d2n3).SetBehavior(constant(ms(10))))

		_, took, err := e.read(consistency.EachQuorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, ms(2), took)
		assert.Equal(t, 2, failure.Failures)
		assert.Equal(t, 4, failure.BlockFor)
	})
}

// Under digest-first dc1 gives three versions, two of them stale. The
// BLOCKING repair returns once each datacenter has a quorum holding the
// result: at d1n2's acknowledgement, without waiting for d1n3's.
func TestBlockingRepairReturnsOnceEnoughReplicasHoldTheResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: digestFirstOptions(t)})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), d1n1, d2n1, d2n2, d2n3))
		for id, lat := range map[string]float64{d1n1: 1, d1n2: 1.1, d1n3: 1.2, d2n1: 2, d2n2: 2.1, d2n3: 50} {
			e.behave(t, id, constant(ms(lat)))
		}
		e.behave(t, d1n3, replicatest.Behavior{Latency: replicatest.Constant(ms(1.2)),
			Pauses: []replicatest.Window{{Start: ms(5), End: ms(60_000)}}}) // its repair write stalls

		res, took, err := e.read(consistency.EachQuorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.ElementsMatch(t, []string{d1n2, d1n3}, res.Trace.Repaired)
		// Digests by 2.1 ms, d1n1's data at 3.1, the reconcile reads by
		// 5.2, d1n2's repair acknowledged at 6.3.
		assert.Equal(t, ms(6.3), took)

		// d1n3's write, still running, went on in the ASYNC queue, where it
		// timed out: each repair is counted once as sent and ends once.
		time.Sleep(6 * time.Second)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(2), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsAcked)
		assert.Equal(t, int64(1), m.RepairsFailed)
	})
}

// The repair of a stale datacenter must reach a quorum there: dc1's three
// up-to-date replicas do not make up for dc2's, and a repair write that
// stalls in dc2 times the read out (stricter than Cassandra's single
// latch, on purpose).
func TestBlockingRepairCountsAcknowledgementsPerDatacenter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: digestFirstOptions(t), ReadTimeout: ms(100)})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), d1n1, d1n2, d1n3, d2n3))
		for id, lat := range map[string]float64{d1n1: 1, d1n2: 1.1, d1n3: 1.2, d2n1: 2, d2n2: 2.1, d2n3: 50} {
			e.behave(t, id, constant(ms(lat)))
		}
		e.behave(t, d2n2, replicatest.Behavior{Latency: replicatest.Constant(ms(2.1)),
			Pauses: []replicatest.Window{{Start: ms(4), End: ms(60_000)}}}) // its repair write stalls

		res, took, err := e.read(consistency.EachQuorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, ms(100), took)
		assert.True(t, timeout.DataPresent)
		assert.ElementsMatch(t, []string{d2n1, d2n2}, res.Trace.Repaired)
		time.Sleep(time.Second) // let the stalled write's cancellation land
	})
}

// EACH_QUORUM never speculates, in the reconcile round either (see
// reconcileMaySpeculate): with a 0 ms threshold and a digest mismatch whose
// reconcile reads take a millisecond, the reconcile round books no
// speculative action, not even one suppressed for want of a candidate.
func TestEachQuorumReconcileRoundDoesNotSpeculate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: policy(t, hedgeAtOnce)})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), d1n1, d2n1))
		for _, id := range twoDCs {
			e.behave(t, id, constant(ms(1)))
		}

		res, _, err := e.read(consistency.EachQuorum)
		require.NoError(t, err)
		require.True(t, res.Trace.DigestMismatch, "%s", res.Trace)
		h := res.Trace.ReconcileHedge
		assert.False(t, h.Fired, "%s", res.Trace)
		assert.Equal(t, coordinator.NotSuppressed, h.Suppressed, "%s", res.Trace)
		assert.Equal(t, int64(0), e.c.Metrics().Total.ReconcileSpeculations)
	})
}

// A BLOCKING repair that finds a quorum of each datacenter already up to
// date has nothing to wait for: the stale replica's write goes to the ASYNC
// queue, not into the read as a repair request that the read's end would
// cancel at once. Digest-first, dc1 gives three versions, d1n3's stale.
func TestBlockingRepairWithQuorumsUpToDateQueuesTheWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: digestFirstOptions(t)})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), d1n1, d1n2, d2n1, d2n2, d2n3))
		for id, lat := range map[string]float64{d1n1: 1, d1n2: 1.1, d1n3: 1.2, d2n1: 2, d2n2: 2.1, d2n3: 50} {
			e.behave(t, id, constant(ms(lat)))
		}

		res, _, err := e.read(consistency.EachQuorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		require.Equal(t, []string{d1n3}, res.Trace.Repaired, "%s", res.Trace)
		for _, rq := range res.Trace.Requests {
			assert.NotEqual(t, coordinator.PhaseRepair, rq.Phase, "no repair round to wait in\n%s", res.Trace)
		}
		time.Sleep(time.Second)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsAcked, "the queued write was acknowledged")
	})
}
