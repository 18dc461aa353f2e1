package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
)

// Ports of Cassandra's
// test/unit/org/apache/cassandra/service/reads/repair/AbstractReadRepairTest.java,
// whose tests run under BlockingReadRepairTest (BLOCKING) and
// ReadOnlyReadRepairTest (NONE) alike: the reconcile round's additional
// read (maybeSendAdditionalReads) does not depend on the repair mode.
// DiagEventsBlockingReadRepairTest sees the same read as a SPECULATED_READ
// event: here a HedgeEvent of PhaseReconcile.

var abstractRepairModes = []repair.Mode{repair.Blocking, repair.None}

// readSpeculationCycle: after the mismatch at 1 ms the reconcile round's
// data read to B stalls, so at the 10 ms threshold one data read goes to
// C, not contacted before; the read resolves with C's version. Cassandra
// re-reads A too (startRepair asks every contact); readpath keeps A's data
// answer of the first round, so the reconcile reads are B's and C's.
func TestCassandraAbstractRepairReadSpeculationCycle(t *testing.T) {
	for _, mode := range abstractRepairModes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var log eventLog
				o := policy(t, "10ms")
				o.ReadRepair = mode
				e := newStallingEnv(t, coordinator.Config{DefaultTable: o, Observer: log.observer()})

				res, took, err := e.read(consistency.Quorum)
				require.NoError(t, err)
				assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
				assert.Equal(t, []string{B, C}, contactedIn(res.Trace, coordinator.PhaseReconcile))
				assert.True(t, res.Trace.ReconcileHedge.Fired)
				assert.Equal(t, C, res.Trace.ReconcileHedge.To)
				assert.Equal(t, ms(11), res.Trace.ReconcileHedge.At)
				log.mu.Lock()
				defer log.mu.Unlock()
				require.Len(t, log.hedges, 1)
				assert.Equal(t, coordinator.PhaseReconcile, log.hedges[0].Phase)
				assert.Equal(t, coordinator.KindData, log.hedges[0].Kind)
				assert.Equal(t, C, log.hedges[0].To.ID)
				if mode == repair.None {
					assert.Equal(t, ms(12), took, "C's data at 12 ms; nothing written")
					settle()
					assert.Zero(t, e.cluster.Stats().Mutations)
					assert.Empty(t, log.repairs)
				} else {
					assert.Equal(t, ms(13), took, "A's repair acknowledged at 13 ms")
					assert.Equal(t, []string{A}, res.Trace.Repaired)
				}
			})
		})
	}
}

// noSpeculationRequired: the reconcile round's data is in at 2 ms, before
// the threshold, so no additional read is sent and C is never asked.
func TestCassandraAbstractRepairNoSpeculationRequired(t *testing.T) {
	for _, mode := range abstractRepairModes {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := policy(t, "10ms")
				o.ReadRepair = mode
				e := newEnv(t, coordinator.Config{DefaultTable: o})
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B, C))

				res, _, err := e.read(consistency.Quorum)
				require.NoError(t, err)
				assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
				assert.True(t, res.Trace.DigestMismatch)
				assert.Equal(t, []string{B}, contactedIn(res.Trace, coordinator.PhaseReconcile))
				assert.False(t, res.Trace.ReconcileHedge.Fired)
				settle()
				assert.Zero(t, e.stats(C).Reads+e.stats(C).Mutations)
			})
		})
	}
}
