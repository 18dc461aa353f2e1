package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Vectors ported from Cassandra's
// test/unit/org/apache/cassandra/service/reads/repair/ReadRepairTest.java
// (LOCAL_QUORUM over three local targets), run over two datacenters: the
// read contacts d1n1 and d1n2, d1n3 is the uncontacted local replica, and
// dc2 must see nothing.

// twoCells is key's row with columns a and b, either of them left out.
func twoCells(a, b bool) replica.Partition {
	var cells []replica.Cell
	if a {
		cells = append(cells, replica.Live("a", "A", 10))
	}
	if b {
		cells = append(cells, replica.Live("b", "B", 10))
	}
	return replica.NewPartition(key, replica.NewRow("r", cells...))
}

// stallRepairs holds every request reaching id after the reads (repair
// writes arrive at 2 ms) until end.
func stallRepairs(t *testing.T, e *env, id string, end time.Duration) {
	t.Helper()
	e.behave(t, id, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
		Pauses: []replicatest.Window{{Start: ms(1.5), End: end}}})
}

func newVectorEnv(t *testing.T) *env {
	t.Helper()
	p := policy(t, "NEVER")
	p.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
	return newTwoDCs(t, coordinator.Config{DefaultTable: p})
}

func assertNothingRemote(t *testing.T, e *env) {
	t.Helper()
	settle()
	for _, id := range []string{d2n1, d2n2, d2n3} {
		assert.Zero(t, e.stats(id).Reads+e.stats(id).Mutations, id)
	}
}

// additionalMutationRequired: both contacts are stale, each lacking what
// the other holds; neither acknowledges in time, so the merge of both
// repairs goes to the third local replica, and the read returns at the
// second acknowledgement (d1n1's at 21 ms, after d1n3's at 8 ms), not the
// first.
func TestReadRepairVectorAdditionalMutationRequired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newVectorEnv(t)
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(true, false), d1n1))
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(false, true), d1n2))
		require.NoError(t, e.cluster.SeedOn(tbl, replica.NewPartition(key), d1n3))
		stallRepairs(t, e, d1n1, ms(20))
		stallRepairs(t, e, d1n2, time.Hour)

		res, took, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(twoCells(true, true)))
		assert.ElementsMatch(t, []string{d1n1, d1n2}, res.Trace.Repaired)
		assert.Equal(t, d1n3, res.Trace.AdditionalWrite.To)
		assert.Equal(t, ms(21), took, "blocks for two acknowledgements")
		p, _ := e.replica(d1n3).Partition(tbl, key)
		assert.True(t, p.Equal(twoCells(true, true)), "d1n3 got the merge of the unacknowledged repairs: %v", p)
		assertNothingRemote(t, e)
	})
}

// noAdditionalMutationRequired: both repairs are acknowledged before the
// additional-write threshold: nothing more is sent.
func TestReadRepairVectorNoAdditionalMutationRequired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newVectorEnv(t)
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(true, false), d1n1))
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(false, true), d1n2))

		res, took, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err)
		assert.Equal(t, ms(3), took)
		assert.False(t, res.Trace.AdditionalWrite.Fired)
		settle()
		assert.Zero(t, e.stats(d1n3).Mutations)
		assertNothingRemote(t, e)
	})
}

// noAdditionalMutationPossible: the third local replica is down, so the
// stalled repair has nowhere else to go in the local datacenter; dc2's
// live replicas are no candidates at LOCAL_QUORUM.
func TestReadRepairVectorNoAdditionalMutationPossible(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newVectorEnv(t)
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(true, false), d1n1))
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(false, true), d1n2))
		require.NoError(t, e.cluster.SetAlive(d1n3, false))
		stallRepairs(t, e, d1n1, ms(20))

		res, took, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err)
		assert.Equal(t, ms(21), took)
		assert.False(t, res.Trace.AdditionalWrite.Fired)
		assert.Equal(t, coordinator.NoCandidate, res.Trace.AdditionalWrite.Suppressed)
		assertNothingRemote(t, e)
	})
}

// mutationsArentSentToInSyncNodes: d1n2 is up to date and is sent
// nothing, neither a repair nor the additional write, which goes to d1n3
// only.
func TestReadRepairVectorMutationsArentSentToInSyncNodes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newVectorEnv(t)
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(true, false), d1n1))
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(true, true), d1n2, d1n3))
		stallRepairs(t, e, d1n1, time.Hour)

		res, took, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err)
		assert.Equal(t, []string{d1n1}, res.Trace.Repaired)
		assert.Equal(t, ms(8), took, "d1n2 counts as holding the result; d1n3's acknowledgement completes it")
		settle()
		assert.Zero(t, e.stats(d1n2).Mutations)
		assert.Equal(t, int64(1), e.stats(d1n3).Mutations)
		assertNothingRemote(t, e)
	})
}
