package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Ports of Cassandra's ReadCommandTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/ReadCommandTest.java) group tests:
// each group of writes lands in a store truncated before it, and the
// groups' answers are merged, so here each group is one replica's data
// and the keys are read at ALL with ReadMany. Its CREATE is a row at
// timestamp 0 with liveness (1 here: Inserted(0) is none), its DELETE a
// row deletion at the current time (2 here, made now, or at the given
// local deletion time).

type rcWrite struct {
	del           bool
	key, col, val string
	ldt           int64 // a DELETE's local deletion time; 0: now
}

func rcCreate(key, col, val string) rcWrite { return rcWrite{key: key, col: col, val: val} }
func rcDelete(key, col string) rcWrite      { return rcWrite{del: true, key: key, col: col} }

// rcGroups seeds group i's writes on replica i+1 of a cluster of as many,
// and returns a coordinator over it and the keys in order.
func rcGroups(t *testing.T, groups [][]rcWrite) (*env, []string) {
	t.Helper()
	n := len(groups)
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: n, Nodes: n}},
		Replication: consistency.Simple(n), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	var keys []string
	var ids []string
	for i := range n {
		ids = append(ids, fmt.Sprintf("dc1-r%d-n%d", i+1, i+1))
	}
	for i, g := range groups {
		held := map[string]replica.Partition{}
		for _, w := range g {
			if _, ok := held[w.key]; !ok && !slices.Contains(keys, w.key) {
				keys = append(keys, w.key)
			}
			r := replica.NewRow(w.col, replica.Live(w.val, "blah", 1)).WithLiveness(replica.Inserted(1))
			if w.del {
				ldt := w.ldt
				if ldt == 0 {
					ldt = now
				}
				r = replica.NewRow(w.col).WithDeletion(replica.DeletedAt(2, ldt))
			}
			p := held[w.key]
			p.Key = w.key
			p.Rows = append(p.Rows, r)
			held[w.key] = p
		}
		for _, p := range held {
			slices.SortFunc(p.Rows, func(a, b replica.Row) int { return strings.Compare(a.Clustering, b.Clustering) })
			require.NoError(t, cl.SeedOn(tbl, p, ids[i]))
		}
	}
	for _, k := range keys {
		require.NoError(t, cl.Pin(tbl, k, ids...))
	}
	return newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER")}), keys
}

// rcRead reads keys at ALL, at now, and returns each key's visible rows
// and the most tombstones a replica met for it.
func rcRead(t *testing.T, e *env, keys []string) (map[string][]string, map[string]int) {
	t.Helper()
	rs, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.All, NowInSec: now})
	require.NoError(t, err)
	rows, tombstones := map[string][]string{}, map[string]int{}
	for _, kr := range rs {
		require.NoError(t, kr.Err, kr.Key)
		for _, r := range kr.Result.Visible().Rows {
			rows[kr.Key] = append(rows[kr.Key], r.Clustering)
		}
		tombstones[kr.Key] = kr.Result.Trace.Tombstones
	}
	return rows, tombstones
}

func rcMax(m map[string]int) int {
	most := 0
	for _, v := range m {
		most = max(most, v)
	}
	return most
}

// testSinglePartitionGroupMerge: the rows left once the deletions are
// merged in, partition by partition ("aa", "ff", "ee", "cc", "dd", "cc",
// "bb" over five partitions; key6's only row is deleted).
func TestReadCommandSinglePartitionGroupMerge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, keys := rcGroups(t, [][]rcWrite{
			{rcCreate("key1", "aa", "a"), rcCreate("key2", "bb", "b"), rcCreate("key3", "cc", "c")},
			{rcCreate("key3", "dd", "d"), rcCreate("key2", "ee", "e"), rcCreate("key1", "ff", "f")},
			{rcCreate("key6", "aa", "a"), rcCreate("key5", "bb", "b"), rcCreate("key4", "cc", "c")},
			{rcDelete("key6", "aa"), rcDelete("key2", "bb")},
		})
		rows, _ := rcRead(t, e, keys)
		assert.Equal(t, map[string][]string{"key1": {"aa", "ff"}, "key2": {"ee"}, "key3": {"cc", "dd"},
			"key4": {"cc"}, "key5": {"bb"}}, rows)
	})
}

// testCountDeletedRows, testCountWithNoDeletedRow and
// testCountPurgeableTombstones: the most tombstones a read met. Each
// deleted row is one; a deletion purgeable at the read (local deletion
// time 42, past gc_grace) is none. Cassandra's figure for no deletion is
// 1, its tombstoneScannedHistogram's lowest bucket, where a count is 0.
func TestReadCommandCountTombstones(t *testing.T) {
	creates := [][]rcWrite{
		{rcCreate("key1", "aa", "a"), rcCreate("key2", "bb", "b"), rcCreate("key3", "cc", "c")},
		{rcCreate("key3", "dd", "d"), rcCreate("key2", "ee", "e"), rcCreate("key1", "ff", "f")},
		{rcCreate("key6", "aa", "a"), rcCreate("key5", "bb", "b"), rcCreate("key4", "cc", "c")},
	}
	key2 := slices.Clip(append(slices.Clip(creates), []rcWrite{rcCreate("key2", "aa", "a"), rcCreate("key2", "cc", "c"), rcCreate("key2", "dd", "d")}))
	tests := []struct {
		name   string
		groups [][]rcWrite
		want   int
	}{
		{"testCountDeletedRows", append(key2, []rcWrite{rcDelete("key6", "aa"), rcDelete("key2", "bb"),
			rcDelete("key2", "ee"), rcDelete("key2", "aa"), rcDelete("key2", "cc"), rcDelete("key2", "dd")}), 5},
		{"testCountWithNoDeletedRow", creates, 0},
		{"testCountPurgeableTombstones", append(key2, []rcWrite{
			{del: true, key: "key6", col: "aa"}, {del: true, key: "key6", col: "bb", ldt: 42},
			{del: true, key: "key2", col: "bb"}, {del: true, key: "key2", col: "ee"},
			{del: true, key: "key2", col: "aa", ldt: 42}, {del: true, key: "key2", col: "cc", ldt: 42},
			{del: true, key: "key2", col: "dd", ldt: 42}}), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e, keys := rcGroups(t, tt.groups)
				_, tombstones := rcRead(t, e, keys)
				assert.Equal(t, tt.want, rcMax(tombstones), "%v", tombstones)
			})
		})
	}
}
