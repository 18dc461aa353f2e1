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

// fiveThreeCluster has dc1 of five nodes (RF 5) and dc2 of three (RF 3),
// key pinned to A to E, then to dc2's.
func fiveThreeCluster(t *testing.T) *replicatest.Cluster {
	t.Helper()
	return pinnedCluster(t, []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}, {Name: "dc2", Racks: 3, Nodes: 3}},
		consistency.NetworkTopology(map[string]int{"dc1": 5, "dc2": 3}), A, B, C, D, E, d2n1, d2n2, d2n3)
}

// speculativeTo lists the replicas tr's speculative requests went to.
func speculativeTo(tr coordinator.Trace) []string {
	var to []string
	for _, rt := range tr.Requests {
		if rt.Speculative {
			to = append(to, rt.Endpoint)
		}
	}
	return to
}

// standInCase is a read at level over a cluster whose replicas capped
// (first round) or hanging (reconcile round) are contacts refused for
// their backlog, and the free replicas that should stand in for them.
type standInCase struct {
	level            consistency.Level
	cluster          func(*testing.T) *replicatest.Cluster
	capped, standIns []string
}

// Every contact refused for its replica's backlog is replaced by a free
// replica, the closest first (at LOCAL_QUORUM a local one), free of the
// budgets: the load of a healthy read. Only the first was, so with two
// contacts refused the read failed at once with ReadFailureError (0
// received, 2 failures) while the free replicas sat idle. Under ALWAYS,
// whose extra request (the first listed) makes up for one refusal, the
// other was not replaced at all: the same failure.
func TestEveryRefusedContactIsReplaced(t *testing.T) {
	for _, c := range []standInCase{
		{consistency.Quorum, twoDCsCluster, []string{d1n1, d1n2}, []string{d2n2, d2n3}},
		{consistency.LocalQuorum, fiveThreeCluster, []string{A, B}, []string{D, E}},
		{consistency.Two, fiveNodes, []string{A, B}, []string{C, D}},
		{consistency.Three, fiveNodes, []string{A, B}, []string{D, E}},
	} {
		for _, pol := range []string{"5ms", "ALWAYS"} {
			t.Run(c.level.String()+"/"+pol, func(t *testing.T) {
				testRefusedContactsReplaced(t, c, pol)
			})
		}
	}
}

// testRefusedContactsReplaced reads at c.level under policy pol with
// c.capped at their cap, and checks c.standIns replaced them.
func testRefusedContactsReplaced(t *testing.T, c standInCase, pol string) {
	synctest.Test(t, func(t *testing.T) {
		obs := &repairRecorder{}
		cfg := locatorOrder(t)
		cfg.LocalDatacenter, cfg.Observer, cfg.DefaultTable = "dc1", obs, policy(t, pol)
		e := newEnvOn(t, c.cluster(t), cfg)
		hangAtCap(t, e, c.capped...)
		defer drain()
		hedged, _ := obs.snapshot()
		before := e.totalReads()
		res, took, err := e.read(c.level)
		require.NoError(t, err, "%s", res.Trace)
		assert.Equal(t, ms(1), took, "replaced at once")
		assert.Equal(t, 2, refusedIn(res.Trace), "%s", res.Trace)
		assert.Equal(t, c.standIns, speculativeTo(res.Trace), "%s", res.Trace)
		assert.Equal(t, c.standIns[0], res.Trace.Hedge.To, "the first traced")
		tm, _ := e.c.TableMetrics(tbl)
		assert.Equal(t, int64(2), tm.SpeculativeRetries, "each counted")
		assert.Zero(t, tm.NoCandidate)
		hedges, _ := obs.snapshot()
		assert.Len(t, hedges[len(hedged):], 2, "each observed")
		settle()
		assert.Equal(t, int64(res.Trace.BlockFor), e.totalReads()-before, "blockFor sent: no more than a healthy read")
	})
}

// Every data request of the reconcile round refused for its replica's
// backlog (capped after answering the first round) is replaced by one to
// a replica not yet asked. A holds v2. Only the first was, so the read
// failed at 1 ms with ReadFailureError (1 received, 2 failures).
func TestEveryRefusedReconcileReadIsReplaced(t *testing.T) {
	for _, c := range []standInCase{
		{consistency.Quorum, twoDCsCluster, []string{d1n2, d1n3}, []string{d2n2, d2n3}},
		{consistency.LocalQuorum, fiveThreeCluster, []string{B, C}, []string{D, E}},
		{consistency.Three, fiveNodes, []string{B, C}, []string{D, E}},
	} {
		t.Run(c.level.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newHangingOn(t, c.cluster(t), locatorOrder(t), c.capped...)
				defer drain()
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))

				res, err := readCappingMidway(t, e, c.level, ms(0.5))
				require.NoError(t, err, "%s", res.Trace)
				assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
				assert.Equal(t, 2, refusedIn(res.Trace), "%s", res.Trace)
				assert.Equal(t, c.standIns, speculativeTo(res.Trace), "%s", res.Trace)
				assert.Equal(t, c.standIns[0], res.Trace.ReconcileHedge.To, "the first traced")
				tm, _ := e.c.TableMetrics(tbl)
				assert.Equal(t, int64(2), tm.ReconcileSpeculations, "each counted")
			})
		})
	}
}
