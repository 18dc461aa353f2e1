package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// newStallingEnv is the scenario of Cassandra's maybeSendAdditionalReads:
// A holds v1, B and C hold v2; B answers its digest at 1 ms, then stalls
// on every later request, the reconcile round's data read included.
func newStallingEnv(t *testing.T, cfg coordinator.Config) *env {
	t.Helper()
	e := newEnv(t, cfg)
	require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B, C))
	e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
		Pauses: []replicatest.Window{{Start: ms(1), End: ms(60_000)}}})
	return e
}

// After a mismatch at 1 ms the reconcile round waits on B's data until the
// 10 ms threshold, then asks C, the closest replica not contacted at all:
// C answers at 12 ms, A is repaired by 13 ms, and the read returns v2.
func TestReconcileSpeculatesToAnUncontactedReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newStallingEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms")})

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.Equal(t, ms(13), took)
		h := res.Trace.ReconcileHedge
		assert.True(t, h.Fired)
		assert.Equal(t, C, h.To, "never the stalled digest replica")
		assert.Equal(t, ms(11), h.At, "the threshold counts from the mismatch")
		assert.Equal(t, []string{A}, res.Trace.Repaired)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.ReconcileSpeculations)
		assert.Zero(t, m.SpeculativeRetries, "the first round did not hedge")
		assert.Equal(t, 1, countSpeculative(res.Trace, coordinator.PhaseReconcile))
	})
}

// The reconcile round speculates only at levels that block for at least a
// quorum (LOCAL_QUORUM for DC-local levels), never at EACH_QUORUM, and only
// when the threshold is within the read timeout.
func TestReconcileSpeculatesOnlyWhenCassandraWould(t *testing.T) {
	cases := []struct {
		name   string
		level  consistency.Level
		policy string
		want   bool
	}{
		{"QUORUM", consistency.Quorum, "10ms", true},
		{"TWO at RF 3", consistency.Two, "10ms", true},
		{"LOCAL_QUORUM", consistency.LocalQuorum, "10ms", true},
		{"EACH_QUORUM", consistency.EachQuorum, "10ms", false},
		{"NEVER", consistency.Quorum, "NEVER", false},
		{"threshold beyond the timeout", consistency.Quorum, "6000ms", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newStallingEnv(t, coordinator.Config{DefaultTable: policy(t, c.policy), LocalDatacenter: "dc1"})
				res, _, err := e.read(c.level)
				assert.Equal(t, c.want, res.Trace.ReconcileHedge.Fired)
				if c.want {
					require.NoError(t, err)
					return
				}
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout, "without speculation the stalled replica times the read out")
				assert.True(t, timeout.DataPresent)
				assert.Zero(t, e.c.Metrics().Total.ReconcileSpeculations)
			})
		})
	}
}

// TWO at RF 5 blocks for fewer than a quorum (3): the reconcile round
// does not speculate, and the stalled replica times the read out.
func TestReconcileDoesNotSpeculateBelowAQuorum(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}},
			Replication: consistency.Simple(5), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		ids := []string{A, B, C, "dc1-r4-n4", "dc1-r5-n5"}
		require.NoError(t, cl.Pin(tbl, key, ids...))
		require.NoError(t, cl.SeedOn(tbl, row(key, "v1", 10), A))
		require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), ids[1:]...))
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "10ms"), ReadTimeout: ms(100)})
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(1), End: ms(60_000)}}})

		res, _, err := e.read(consistency.Two)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.True(t, res.Trace.DigestMismatch)
		assert.False(t, res.Trace.ReconcileHedge.Fired)
		assert.Zero(t, e.c.Metrics().Total.ReconcileSpeculations)
	})
}

// A spent budget suppresses the reconcile round's speculation, and says so.
func TestReconcileSpeculationIsBudgeted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		none := coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1}
		e := newStallingEnv(t, coordinator.Config{DefaultTable: policy(t, "10ms"), HedgeBudget: none, ReadTimeout: ms(100)})
		res, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, ms(100), took)
		assert.Equal(t, coordinator.SuppressedBudget, res.Trace.ReconcileHedge.Suppressed)
		assert.Equal(t, int64(1), e.c.Metrics().Total.SuppressedBudget)
	})
}

// countSpeculative counts a trace's speculative requests of a phase.
func countSpeculative(tr coordinator.Trace, ph coordinator.Phase) int {
	n := 0
	for _, rt := range tr.Requests {
		if rt.Speculative && rt.Phase == ph {
			n++
		}
	}
	return n
}
