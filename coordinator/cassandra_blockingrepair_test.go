package coordinator_test

import (
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

// Ports of Cassandra's
// test/unit/org/apache/cassandra/service/reads/repair/BlockingReadRepairTest.java
// in its own setting: one datacenter, RF 3, QUORUM, a row of columns a, b
// and c (remoteDCTest: two datacenters at LOCAL_QUORUM). Its
// consistencyLevelTest (which levels satisfy QUORUM, deciding whether the
// reconcile round may speculate) is reconcile_test.go's TWO at RF 3 and
// RF 5. Cassandra hands
// BlockingPartitionRepair the repairs; here a read computes them, so each
// replica is seeded with what it must lack. What each replica is sent
// (Cassandra's mutationsSent) is recorded as its Apply is called; an ack
// is a replica answering its write, which a paused replica does late.

// additionalMutationRequired: A lacks b, B lacks
// a, C (not read) holds neither. A is sent b alone, B a alone; neither
// acknowledges by the 5 ms additional-write threshold, so C is sent their
// merge, a and b. C's ack (8 ms) is one of two: the read returns at A's
// (21 ms), not at C's, and B's write, never acknowledged, is not awaited.
func TestCassandraBlockingRepairAdditionalMutationRequired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, log := newBlockingRepairEnv(t, "NEVER", repair.Blocking)
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("a"), A))
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("b"), B))
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells(), C))
		stallRepairs(t, e, A, ms(20))
		stallRepairs(t, e, B, time.Hour)

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(threeCells("a", "b")), "%v", res.Partition)
		assert.Equal(t, ms(21), took, "blocks until A, the second to acknowledge")
		assert.ElementsMatch(t, []string{A, B}, res.Trace.Repaired)
		assert.Equal(t, []string{C}, additionalTargets(res.Trace))
		assert.Equal(t, ms(7), res.Trace.AdditionalWrite.At, "5 ms after the writes went out at 2 ms")
		settle()
		assert.True(t, log.only(t, A).Equal(threeCells("b")), "A: %v", log.only(t, A))
		assert.True(t, log.only(t, C).Equal(threeCells("a", "b")), "C: %v", log.only(t, C))
		p, _ := e.replica(C).Partition(tbl, key)
		assert.True(t, p.Equal(threeCells("a", "b")), "C holds the resolved row: %v", p)
		log.resent(t, B, threeCells("a"))
	})
}

// noAdditionalMutationRequired: A and B acknowledge by 3 ms, well before
// the additional-write threshold, so C is sent nothing.
func TestCassandraBlockingRepairNoAdditionalMutationRequired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, log := newBlockingRepairEnv(t, "NEVER", repair.Blocking)
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("a"), A))
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("b"), B))

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(3), took)
		assert.False(t, res.Trace.AdditionalWrite.Fired)
		settle()
		assert.True(t, log.only(t, A).Equal(threeCells("b")))
		assert.True(t, log.only(t, B).Equal(threeCells("a")))
		log.none(t, C)
	})
}

// noAdditionalMutationPossible: C, the only replica not written, is down;
// with A's write stalled until 20 ms the repair has nowhere else to go, so
// the read waits for A and says why it did not speculate.
func TestCassandraBlockingRepairNoAdditionalMutationPossible(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, log := newBlockingRepairEnv(t, "NEVER", repair.Blocking)
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("a"), A))
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("b"), B))
		require.NoError(t, e.cluster.SetAlive(C, false))
		stallRepairs(t, e, A, ms(20))

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(21), took)
		assert.False(t, res.Trace.AdditionalWrite.Fired)
		assert.Equal(t, coordinator.NoCandidate, res.Trace.AdditionalWrite.Suppressed)
		settle()
		log.none(t, C)
	})
}

// mutationsArentSentToInSyncNodes: B is up to date and is sent nothing,
// neither a repair nor the additional write; C is sent A's repair (b)
// alone, and its ack with B's holding completes the level at 8 ms.
func TestCassandraBlockingRepairMutationsArentSentToInSyncNodes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, log := newBlockingRepairEnv(t, "NEVER", repair.Blocking)
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("a"), A))
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("a", "b"), B, C))
		stallRepairs(t, e, A, time.Hour)

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(8), took)
		assert.Equal(t, []string{A}, res.Trace.Repaired)
		assert.Equal(t, []string{C}, additionalTargets(res.Trace))
		settle()
		log.resent(t, A, threeCells("b"))
		log.none(t, B)
		assert.True(t, log.only(t, C).Equal(threeCells("b")), "C: %v", log.only(t, C))
	})
}

// onlyBlockOnQuorum: under ALWAYS all three replicas are read and each
// lacks two of a, b and c. Cassandra hands its handler three repairs; a
// read here merges the first blockFor versions in, so which two are
// repaired depends on which of the answers due at 1 ms is taken first (as
// in Cassandra's ReadCallback), and the third, whose data was not merged,
// may get the additional write. Either way C's writes never being
// acknowledged does not hold the read past the second acknowledgement
// (3 ms, or 8 ms when C's version was merged and B is written late); each
// stale replica is sent exactly what it lacks of the result, an additional
// target the merge of what the unacknowledged ones lack (Cassandra's
// mergeUnackedUpdates), so every cell of the result is held by a quorum.
func TestCassandraBlockingRepairOnlyBlockOnQuorum(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, log := newBlockingRepairEnv(t, "ALWAYS", repair.Blocking)
		held := map[string]replica.Partition{A: threeCells("a"), B: threeCells("b"), C: threeCells("c")}
		for id, p := range held {
			require.NoError(t, e.cluster.SeedOn(tbl, p, id))
		}
		stallRepairs(t, e, C, time.Hour)

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Len(t, res.Trace.Repaired, 2, "the two versions merged are both stale")
		assert.LessOrEqual(t, took, ms(8))
		settle()
		for _, id := range res.Trace.Repaired {
			want, _ := repair.Diff(res.Partition, held[id])
			log.resent(t, id, want)
		}
		for _, id := range additionalTargets(res.Trace) {
			want, _ := repair.Diff(res.Partition, held[C])
			log.resent(t, id, want)
		}
		for _, c := range res.Partition.Rows[0].Cells {
			n := 0
			for _, id := range []string{A, B, C} {
				p, _ := e.replica(id).Partition(tbl, key)
				if merged, _ := repair.Merge(p, threeCells(c.Column)); merged.Equal(p) {
					n++
				}
			}
			assert.GreaterOrEqual(t, n, 2, "%s is held by a quorum", c.Column)
		}
	})
}

// remoteDCTest: at LOCAL_QUORUM a remote replica's write must not count
// towards the level. Cassandra's test hands the handler a plan holding
// remote replicas; a read here never contacts another datacenter at a
// DC-local level, so the remote stale replica d2n1 is neither read nor
// written, and the read blocks on d1n1's acknowledgement alone (d1n2 is
// up to date): 5 ms, where the write, held until 4 ms, is answered.
func TestCassandraBlockingRepairRemoteDC(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newVectorEnv(t)
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(true, true), d1n2, d1n3, d2n2, d2n3))
		require.NoError(t, e.cluster.SeedOn(tbl, twoCells(true, false), d1n1, d2n1))
		stallRepairs(t, e, d1n1, ms(4))

		res, took, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(twoCells(true, true)))
		assert.Equal(t, []string{d1n1}, res.Trace.Repaired)
		assert.Equal(t, ms(5), took)
		assert.False(t, res.Trace.AdditionalWrite.Fired)
		assertNothingRemote(t, e)
	})
}
