package coordinator_test

import (
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A replica restored from an old backup is stale on every key: ALL
// reads repair it, and Metrics().Replicas says which replica the repairs
// go to, without an Observer: its Repairs is the table's RepairsSent, the
// others' zero.
func TestReplicaMetricsCountTheRepairsEachReplicaIsSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		const keys = 10
		for i := range keys {
			k := fmt.Sprint("k", i)
			require.NoError(t, e.cluster.Pin(tbl, k, B, A, C)) // A answers a digest, not the data
			require.NoError(t, e.cluster.Seed(tbl, row(k, "new", 20)))
			require.NoError(t, e.replica(A).Seed(tbl, row(k, "old", 10))) // the backup
		}
		for i := range keys {
			_, err := e.c.Read(t.Context(), coordinator.Request{Table: tbl, Key: fmt.Sprint("k", i), Level: consistency.All})
			require.NoError(t, err)
		}
		m := e.c.Metrics()
		require.Equal(t, int64(keys), m.Total.RepairsSent)
		got := map[string]int64{}
		for _, r := range m.Replicas {
			got[r.Endpoint.ID] = r.Repairs
		}
		assert.Equal(t, map[string]int64{A: keys, B: 0, C: 0}, got)
		assert.Contains(t, m.String(), "repairs")
	})
}

// ForgetReplica drops the replica's row and what it counted, and a table's
// RepairsSent does not go back: the replicas' Repairs summed then fall
// short of Metrics().Total.RepairsSent by the dropped row's count, as
// ReplicaMetrics.Repairs says, and the row made again counts from zero.
func TestReplicaRepairsSumFallsShortAfterForgetReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		const keys = 10
		for i := range keys {
			k := fmt.Sprint("k", i)
			require.NoError(t, e.cluster.Pin(tbl, k, B, A, C))
			require.NoError(t, e.cluster.Seed(tbl, row(k, "new", 20)))
			require.NoError(t, e.replica(A).Seed(tbl, row(k, "old", 10)))
		}
		read := func(i int) {
			_, err := e.c.Read(t.Context(), coordinator.Request{Table: tbl, Key: fmt.Sprint("k", i), Level: consistency.All})
			require.NoError(t, err)
		}
		sum := func(m coordinator.Metrics) (n int64) {
			for _, r := range m.Replicas {
				n += r.Repairs
			}
			return n
		}
		for i := range 4 {
			read(i)
		}
		m := e.c.Metrics()
		require.Equal(t, int64(4), m.Total.RepairsSent)
		require.Equal(t, m.Total.RepairsSent, sum(m), "no row dropped yet")

		e.c.ForgetReplica(A)
		for i := 4; i < keys; i++ {
			read(i)
		}
		m = e.c.Metrics()
		assert.Equal(t, int64(keys), m.Total.RepairsSent, "a table's count does not go back")
		assert.Equal(t, int64(keys-4), replicaRow(t, e.c, A).Repairs, "A's new row counts from zero")
		assert.Equal(t, m.Total.RepairsSent-4, sum(m), "short by the dropped row's 4")
	})
}
