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

// Ports of apache/cassandra's src/java/org/apache/cassandra/locator/ReplicaPlans.java
// forRead (candidatesForRead, contactForRead) with
// src/java/org/apache/cassandra/service/reads/AbstractReadExecutor.java
// getReadExecutor, under SimpleStrategy over two datacenters, which the
// NetworkTopologyStrategy sweeps (mdc_plan_test.go) do not cover. key's
// replicas are d2n1, d1n1 and d1n2, read from dc1 under ALWAYS.

// simpleAlwaysEnv is Simple(3) over dc1 and dc2, key on d2n1, d1n1, d1n2,
// every replica answering in 1 ms, tables speculating ALWAYS.
func simpleAlwaysEnv(t *testing.T) *env {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}, {Name: "dc2", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
		Seed:        1,
		Options:     []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, d2n1, d1n1, d1n2))
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return newEnvOn(t, cl, coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "ALWAYS"),
		HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
}

// firstRoundByDC counts the first round's requests (ALWAYS's extra one
// included) per datacenter, and its data requests.
func firstRoundByDC(tr coordinator.Trace) (perDC map[string]int, data int) {
	perDC = map[string]int{}
	for _, rt := range tr.Requests {
		if rt.Phase != coordinator.PhaseInitial && rt.Phase != coordinator.PhaseSpeculative {
			continue
		}
		perDC[dcOf(rt.Endpoint)]++
		if rt.Kind == coordinator.KindData {
			data++
		}
	}
	return perDC, data
}

// forRead contacts the first blockFor + 1 candidates under ALWAYS;
// candidatesForRead keeps only dc1's two for a DC-local level even under
// SimpleStrategy, so LOCAL_ONE contacts both and LOCAL_QUORUM (blockFor
// quorumFor = 2) has no third to add. ONE and QUORUM take the closest
// candidates, dc1's first. The data requests: ONE leaves a candidate
// out, so getReadExecutor picks AlwaysSpeculatingReadExecutor, which asks
// two contacts for data; LOCAL_QUORUM contacts every candidate without
// an extra one, so NeverSpeculatingReadExecutor asks one. readpath agrees
// on both; for LOCAL_ONE and QUORUM see the next test.
func TestCassandraForReadContactsUnderSimpleStrategyAcrossDatacenters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := simpleAlwaysEnv(t)
		tests := []struct {
			level    consistency.Level
			blockFor int
			perDC    map[string]int
			data     int // 0: see TestCassandraAlwaysWithNoCandidateLeftAsksTwoForData
		}{
			{consistency.One, 1, map[string]int{"dc1": 2}, 2},
			{consistency.LocalOne, 1, map[string]int{"dc1": 2}, 0},
			{consistency.LocalQuorum, 2, map[string]int{"dc1": 2}, 1},
			{consistency.Quorum, 2, map[string]int{"dc1": 2, "dc2": 1}, 0},
		}
		for _, tt := range tests {
			res, _, err := e.read(tt.level)
			require.NoError(t, err, tt.level.String())
			assert.Equal(t, tt.blockFor, res.Trace.BlockFor, tt.level.String())
			perDC, data := firstRoundByDC(res.Trace)
			assert.Equal(t, tt.perDC, perDC, tt.level.String())
			if tt.data > 0 {
				assert.Equal(t, tt.data, data, "%v: data requests", tt.level)
			}
			settle()
		}
	})
}

// A difference the README does not list, pinned. When ALWAYS's extra
// contact is the last live candidate (contacts().size() ==
// readCandidates().size()), Cassandra 4 and 5's getReadExecutor picks
// NeverSpeculatingReadExecutor, which asks one contact for data and the
// others for digests, and counts the read in speculativeInsufficientReplicas;
// only with a candidate to spare does AlwaysSpeculatingReadExecutor ask
// two for data. readpath asks two for data whenever ALWAYS's extra
// request goes out (README, the coordinator's step 2): here LOCAL_ONE
// over dc1's two replicas and QUORUM over all three, where Cassandra
// sends one data request each. The request count is the same; readpath's
// read completes on any blockFor answers, Cassandra's waits for its one
// data replica.
func TestCassandraAlwaysWithNoCandidateLeftAsksTwoForData(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := simpleAlwaysEnv(t)
		for _, l := range []consistency.Level{consistency.LocalOne, consistency.Quorum} {
			res, _, err := e.read(l)
			require.NoError(t, err, l.String())
			_, data := firstRoundByDC(res.Trace)
			assert.Equal(t, 2, data, "%v: Cassandra asks one", l)
			assert.True(t, res.Trace.Hedge.Fired, "%v: ALWAYS's extra request went out", l)
			assert.Zero(t, e.c.Metrics().Total.NoCandidate, l.String())
			settle()
		}
	})
}

// A documented difference, pinned. Under SimpleStrategy contactForRead's
// EACH_QUORUM branch is for NetworkTopologyStrategy only, so EACH_QUORUM
// falls through to blockFor + 1 contacts under ALWAYS, and getReadExecutor
// then picks NeverSpeculatingReadExecutor (CASSANDRA-11980), which sends
// to every contact: one data request and two digests, all three replicas.
// readpath takes no speculative action at EACH_QUORUM (DESIGN.md §2.3,
// step 4), ALWAYS's extra request included: two contacts, one data.
func TestCassandraEachQuorumUnderSimpleStrategyTakesNoAlwaysExtra(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := simpleAlwaysEnv(t)
		res, _, err := e.read(consistency.EachQuorum)
		require.NoError(t, err)
		assert.Equal(t, 2, res.Trace.BlockFor)
		perDC, data := firstRoundByDC(res.Trace)
		assert.Equal(t, map[string]int{"dc1": 2}, perDC, "Cassandra: dc1 2, dc2 1")
		assert.Equal(t, 1, data)
		assert.False(t, res.Trace.Hedge.Fired)
	})
}
