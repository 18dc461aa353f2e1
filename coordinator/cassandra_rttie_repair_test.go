package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Port of Cassandra's partitionDeletionRTTimestampTieTest (apache/cassandra,
// test/distributed/org/apache/cassandra/distributed/test/ReadRepairTest.java;
// CASSANDRA-15369, CASSANDRA-16453): every replica holds (pk, 1) inserted at
// 1 and the rows ck > 2 deleted at 2; C alone also holds the partition
// deleted at 2, later (a local deletion time no earlier than the range's).
// A read at ALL of 1 <= ck < 3 returns nothing, and repairs A and B with the
// partition deletion alone: no row, and no range tombstone, which the
// partition deletion of the same timestamp makes needless. C is up to date.
func TestCassandraPartitionDeletionRangeTombstoneTieRepair(t *testing.T) {
	const now = 1_700_000_000
	for _, tt := range []struct {
		name              string
		rangeLDT, partLDT int64
	}{
		{"range deleted before the partition", now - 20, now - 10},
		{"both in one second", now - 10, now - 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var events []coordinator.RepairEvent
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
					Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) { events = append(events, ev) }}})
				pd := replica.DeletedAt(2, tt.partLDT)
				common := replica.NewPartition(key,
					replica.NewRow("1", replica.Live("value", "1", 1)).WithLiveness(replica.Inserted(1))).
					WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("2"), replica.Top(), replica.DeletedAt(2, tt.rangeLDT)))
				require.NoError(t, e.cluster.SeedOn(tbl, common, A, B))
				require.NoError(t, e.cluster.SeedOn(tbl, common.WithDeletion(pd), C))

				q := replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("1"), End: replica.EndBefore("3")}}}
				res, err := e.c.Read(t.Context(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: q, NowInSec: now})
				require.NoError(t, err)
				settle()
				assert.Empty(t, res.Visible().Rows)
				assert.ElementsMatch(t, []string{A, B}, res.Trace.Repaired)
				require.Len(t, events, 2)
				for _, ev := range events {
					m := ev.Mutation
					assert.Empty(t, m.Rows, "%s: %v", ev.To.ID, m)
					assert.Empty(t, m.RangeTombstones, "%s: %v", ev.To.ID, m)
					assert.Equal(t, pd, m.Deletion, ev.To.ID)
					assert.NoError(t, ev.Err, ev.To.ID)
				}
			})
		})
	}
}
