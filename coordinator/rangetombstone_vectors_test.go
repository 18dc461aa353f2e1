package coordinator_test

import (
	"context"
	"encoding/binary"
	"fmt"
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

// Vectors ported from Cassandra's RangeTombstoneTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/RangeTombstoneTest.java): columns
// named by integers there are rows of those clustering keys here, and each
// mutation, which Cassandra flushes to its own sstable, goes to its own
// replica; a read at ALL must then reconcile what Cassandra's read merges
// from sstables. Rows are written as add(i, ts) writes them; delete(a, b,
// ts) deletes [a, b].

func rtKey(i int) string { return string(binary.BigEndian.AppendUint32(nil, uint32(i))) }

func rtAdd(ts int64, is ...int) replica.Partition {
	rows := make([]replica.Row, len(is))
	for n, i := range is {
		rows[n] = replica.NewRow(rtKey(i), replica.Live("v", rtKey(i), ts))
	}
	return replica.NewPartition(key, rows...)
}

func rtDelete(a, b int, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(replica.StartAt(rtKey(a)), replica.EndAt(rtKey(b)), drDel(ts))
}

func rtRange(from, to, step int) []int {
	var out []int
	for i := from; i < to; i += step {
		out = append(out, i)
	}
	return out
}

// rtRead seeds mutation i on replica i alone and reads q at ALL, returning
// the clustering keys a client sees, in the query's order.
func rtRead(t *testing.T, q replica.Query, mutations ...replica.Partition) []int {
	t.Helper()
	got, _ := rtReadCounting(t, q, mutations...)
	return got
}

// rtReadCounting is rtRead, also returning the short-read requests sent.
func rtReadCounting(t *testing.T, q replica.Query, mutations ...replica.Partition) (got []int, shortReads int) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		n := len(mutations)
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: n, Nodes: n}},
			Replication: consistency.Simple(n),
			Seed:        1,
			Options:     []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		ids := make([]string, n)
		for i, m := range mutations {
			ids[i] = fmt.Sprintf("dc1-r%d-n%d", i+1, i+1)
			require.NoError(t, cl.SeedOn(tbl, m, ids[i]))
		}
		require.NoError(t, cl.Pin(tbl, key, ids...))
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: q, NowInSec: drNow})
		require.NoError(t, err)
		for _, r := range res.Visible().Rows {
			got = append(got, int(binary.BigEndian.Uint32([]byte(r.Clustering))))
		}
		for _, rt := range res.Trace.Requests {
			if rt.Phase == coordinator.PhaseShortRead {
				shortReads++
			}
		}
		settle()
	})
	if q.Reversed {
		slices.Reverse(got)
	}
	return got, shortReads
}

// simpleQueryWithRangeTombstoneTest: even rows at 0, [10, 22] deleted at
// 1, odd rows at 2, [19, 27] deleted at 3.
func TestRangeTombstoneSimpleQuery(t *testing.T) {
	mutations := []replica.Partition{
		rtAdd(0, rtRange(0, 40, 2)...),
		replica.NewPartition(key).WithRangeTombstones(rtDelete(10, 22, 1)),
		rtAdd(2, rtRange(1, 40, 2)...),
		replica.NewPartition(key).WithRangeTombstones(rtDelete(19, 27, 3)),
	}
	t.Run("by name", func(t *testing.T) {
		var q replica.Query
		for _, i := range []int{4, 9, 11, 12, 17, 19, 21, 24, 27, 28} {
			q.Slices = append(q.Slices, replica.PrefixSlice(rtKey(i)))
		}
		assert.Equal(t, []int{4, 9, 11, 17, 28}, rtRead(t, q, mutations...))
	})
	// The slice [7, 30]; its dead rows are 10, 12, 14, 16, 18 and 19 to 27.
	live := []int{7, 8, 9, 11, 13, 15, 17, 28, 29, 30}
	slice := []replica.Slice{{Start: replica.StartAt(rtKey(7)), End: replica.EndAt(rtKey(30))}}
	t.Run("by slice", func(t *testing.T) {
		assert.Equal(t, live, rtRead(t, replica.Query{Slices: slice}, mutations...))
	})
	// Beyond Cassandra's test: under a limit, each replica's answer stops
	// at rows the others delete, so short-read protection must ask again.
	reversed := slices.Clone(live)
	slices.Reverse(reversed)
	for _, limit := range []int{3, 5, 8} {
		t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
			assert.Equal(t, live[:limit], rtRead(t, replica.Query{Slices: slice, Limit: limit}, mutations...))
		})
		t.Run(fmt.Sprintf("reversed, limit %d", limit), func(t *testing.T) {
			got, shortReads := rtReadCounting(t, replica.Query{Slices: slice, Limit: limit, Reversed: true}, mutations...)
			assert.Equal(t, reversed[:limit], got)
			if limit >= 5 { // the answers' first 5 rows hold 3 live: 30, 29, 28
				assert.NotZero(t, shortReads, "short-read protection ran")
			}
		})
	}
}

// overlappingRangeTest: rows 0 to 19 at 0, then [5, 15] and [5, 10] at
// 1 and [5, 8] at 2.
func TestRangeTombstoneOverlappingRanges(t *testing.T) {
	del := func(a, b int, ts int64) replica.Partition {
		return replica.NewPartition(key).WithRangeTombstones(rtDelete(a, b, ts))
	}
	got := rtRead(t, replica.Query{}, rtAdd(0, rtRange(0, 20, 1)...), del(5, 15, 1), del(5, 10, 1), del(5, 8, 2))
	assert.Equal(t, append(rtRange(0, 5, 1), rtRange(16, 20, 1)...), got)
}

// reverseQueryTest: row 2 at 0; then, in one mutation, [0, 10] deleted at
// 1 and row 1 written at 2. The last row is 1.
func TestRangeTombstoneReverseQuery(t *testing.T) {
	second := rtAdd(2, 1).WithRangeTombstones(rtDelete(0, 10, 1))
	got := rtRead(t, replica.Query{Reversed: true, Limit: 1}, rtAdd(0, 2), second)
	assert.Equal(t, []int{1}, got)
}
