package coordinator_test

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Ports of cassandra-dtest ttl_test.py TestDistributedTTL: two nodes, RF 2,
// node1 and node2 as A and B, keys "1" and "2" as its keys 1 and 2.

// twoNodes is a coordinator over A and B, RF 2, holding keys 1 and 2.
func twoNodes(t *testing.T) *env {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 2, Nodes: 2}},
		Replication: consistency.Simple(2), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	for _, k := range []string{"1", "2"} {
		require.NoError(t, cl.Pin(tbl, k, A, B))
	}
	return newEnvOn(t, cl, coordinator.Config{DefaultTable: coordinator.TableOptions{NoClusteringColumns: true}})
}

// insertTTL is INSERT INTO ttl_table (key, col1) VALUES (k, v) USING TTL
// ttl, written at now.
func insertTTL(k, v string, ttl int32) replica.Partition {
	return replica.NewPartition(k, replica.NewRow("", replica.Expiring("col1", v, at(0), ttl, now+int64(ttl))).
		WithLiveness(replica.InsertedWithTTL(at(0), ttl, now+int64(ttl))))
}

// rowsAt reads keys 1 and 2 at level at now+s, with only the replicas
// alive, and returns the keys of the rows a client sees.
func (e *env) rowsAt(t *testing.T, level consistency.Level, s int64, alive ...string) ([]string, []coordinator.KeyResult) {
	t.Helper()
	for _, id := range []string{A, B} {
		require.NoError(t, e.cluster.SetAlive(id, len(alive) == 0 || slices.Contains(alive, id)))
	}
	res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{"1", "2"},
		Level: level, NowInSec: now + s})
	require.NoError(t, err)
	var keys []string
	for _, kr := range res {
		require.NoError(t, kr.Err, kr.Key)
		if len(kr.Result.Visible().Rows) > 0 {
			keys = append(keys, kr.Key)
		}
	}
	return keys, res
}

// test_ttl_is_replicated: a row written at ALL with the table's default
// TTL of 5 s shows at ALL, with the same TTL left on both nodes, and not
// 7 s later, when neither node's answer needs a repair.
func TestDtestTTLIsReplicated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := twoNodes(t)
		require.NoError(t, e.cluster.Seed(tbl, insertTTL("1", "1", 5)))
		keys, _ := e.rowsAt(t, consistency.All, 0)
		assert.Equal(t, []string{"1"}, keys)
		assert.Equal(t, e.stored(t, A, "1"), e.stored(t, B, "1"), "ttl(col1) on node1 and node2")

		keys, res := e.rowsAt(t, consistency.All, 7)
		assert.Empty(t, keys)
		assert.False(t, res[0].Result.Trace.DigestMismatch, "both nodes expired the row alike")
	})
}

// test_ttl_is_respected_on_delayed_replication: node2 is down while key 1
// (TTL 5) and key 2 (TTL 1000) are written to node1. 7 s later node2 alone
// shows nothing; a read at ALL then shows key 2 alone, and its read repair
// gives node2 key 2 with node1's expiry (the same ttl(col1) on both), and
// key 1 as node1 answers it: expired, so tombstones no client sees.
func TestDtestTTLRespectedOnDelayedReplication(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := twoNodes(t)
		for _, p := range []replica.Partition{insertTTL("1", "1", 5), insertTTL("2", "2", 1000)} {
			require.NoError(t, e.cluster.SeedOn(tbl, p, A))
		}
		keys, _ := e.rowsAt(t, consistency.One, 0, A)
		assert.Equal(t, []string{"1", "2"}, keys)
		keys, _ = e.rowsAt(t, consistency.One, 7, B)
		assert.Empty(t, keys, "node1 is down, no replica yet")

		keys, res := e.rowsAt(t, consistency.All, 7)
		assert.Equal(t, []string{"2"}, keys, "SELECT count(*) is 1")
		for _, kr := range res {
			assert.Equal(t, []string{B}, kr.Result.Trace.Repaired, kr.Key)
		}
		assert.Equal(t, e.stored(t, A, "2"), e.stored(t, B, "2"), "ttl(col1) on node1 and node2")
		gone := e.stored(t, B, "1").Rows[0].Cells[0]
		assert.True(t, gone.Tombstone, "%v", gone)
		assert.Equal(t, [2]int64{at(0), now}, [2]int64{gone.Timestamp, gone.LocalDeletionTime}, "expiry - TTL")
		keys, _ = e.rowsAt(t, consistency.One, 7, B)
		assert.Equal(t, []string{"2"}, keys, "node2 alone, repaired")

		_, res = e.rowsAt(t, consistency.All, 7)
		for _, kr := range res {
			assert.False(t, kr.Result.Trace.DigestMismatch, "%s: the repair left the nodes agreeing", kr.Key)
		}
	})
}
