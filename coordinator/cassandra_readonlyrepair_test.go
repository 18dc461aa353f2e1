package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/repair"
)

// Ports of Cassandra's
// test/unit/org/apache/cassandra/service/reads/repair/ReadOnlyReadRepairTest.java:
// getMergeListener (NONE's merge listener is a no-op: no repair is
// computed) and repairPartitionFailure (NONE refuses to repair a
// partition). A read cannot ask NONE to repair, so both become: the
// scenario of BlockingReadRepairTest.additionalMutationRequired, and that
// of onlyBlockOnQuorum, read under NONE, write nothing at all, additional
// writes included, and return the merge at once.
func TestCassandraReadOnlyRepairWritesNothing(t *testing.T) {
	for _, sp := range []string{"NEVER", "ALWAYS"} {
		t.Run(sp, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e, log := newBlockingRepairEnv(t, sp, repair.None)
				require.NoError(t, e.cluster.SeedOn(tbl, threeCells("a"), A))
				require.NoError(t, e.cluster.SeedOn(tbl, threeCells("b"), B))
				require.NoError(t, e.cluster.SeedOn(tbl, threeCells(), C))
				stallRepairs(t, e, A, time.Hour)
				stallRepairs(t, e, B, time.Hour)

				res, took, err := e.read(consistency.Quorum)
				require.NoError(t, err)
				assert.True(t, res.Trace.DigestMismatch)
				assert.LessOrEqual(t, took, ms(2), "the merge is returned without waiting on a write")
				assert.Empty(t, res.Trace.Repaired)
				assert.False(t, res.Trace.AdditionalWrite.Fired)
				time.Sleep(time.Minute) // past any additional-write threshold
				settle()
				for _, id := range []string{A, B, C} {
					log.none(t, id)
				}
				m := e.c.Metrics().Total
				assert.Zero(t, m.RepairsSent+m.AdditionalWrites)
			})
		})
	}
}
