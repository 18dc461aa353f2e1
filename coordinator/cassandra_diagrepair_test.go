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
)

// Ports of Cassandra's
// test/unit/org/apache/cassandra/service/reads/repair/DiagEventsBlockingReadRepairTest.java:
// the vectors of BlockingReadRepairTest seen through diagnostic events,
// here through Config.Observer (HedgeEvent, RepairEvent).

// additionalMutationRequired: Cassandra publishes a PartitionRepairEvent
// per write with its destination and mutation, the speculative one to
// target3 included. Here A's and B's writes are RepairEvents carrying
// exactly what each lacks; the additional write to C is a HedgeEvent of
// the repair phase at the 5 ms threshold, which names its first target
// and not its mutation: no RepairEvent is told of an additional write.
func TestCassandraDiagEventsAdditionalMutationRequired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var log eventLog
		o := policy(t, "NEVER")
		o.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
		e := newEnv(t, coordinator.Config{DefaultTable: o, Observer: log.observer()})
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("a"), A))
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells("b"), B))
		require.NoError(t, e.cluster.SeedOn(tbl, threeCells(), C))
		stallRepairs(t, e, A, ms(20))
		stallRepairs(t, e, B, time.Hour)

		_, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		e.c.Close()     // B's write, not needed for the level, is queued ASYNC; Close ends it
		synctest.Wait() // Close does not wait for a worker telling the Observer of it
		log.mu.Lock()
		defer log.mu.Unlock()
		require.Len(t, log.hedges, 1)
		h := log.hedges[0]
		assert.Equal(t, coordinator.PhaseRepair, h.Phase)
		assert.Equal(t, coordinator.KindRepair, h.Kind)
		assert.Equal(t, C, h.To.ID)
		assert.Equal(t, ms(7), h.At)
		byTo := map[string]coordinator.RepairEvent{}
		for _, r := range log.repairs {
			byTo[r.To.ID] = r
		}
		assert.Len(t, log.repairs, 2, "one event per stale replica: A and B")
		assert.True(t, byTo[A].Mutation.Equal(threeCells("b")), "A: %v", byTo[A].Mutation)
		assert.Equal(t, repair.Blocking, byTo[A].Mode)
		assert.NoError(t, byTo[A].Err)
		assert.Equal(t, ms(19), byTo[A].Took, "sent at 2 ms, acknowledged at 21 ms")
		assert.True(t, byTo[B].Mutation.Equal(threeCells("a")), "B: %v", byTo[B].Mutation)
		assert.Equal(t, repair.Async, byTo[B].Mode, "the read did not wait for it")
	})
}
