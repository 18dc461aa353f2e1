package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Ports of cassandra-dtest deletion_test.py test_gc and range_ghost_test.py
// test_ghosts over three replicas instead of one node: a table with
// gc_grace_seconds 0, some partitions deleted, read before the tombstones
// are purgeable, then once they are, then once one replica (A) has
// compacted them away (flush and compact) and the others still hold them.

// ghostKeys writes keys 0..n-1 (UPDATE cf SET c = 'value') at -10 s and
// deletes the first deleted of them at -5 s.
func ghostKeys(t *testing.T, e *env, n, deleted int) []string {
	t.Helper()
	var keys []string
	for i := range n {
		k := fmt.Sprintf("k%d", i)
		keys = append(keys, k)
		require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
		p := replica.NewPartition(k, replica.NewRow("", replica.Live("c", "value", at(-10))))
		if i < deleted {
			p = p.WithDeletion(replica.DeletedAt(at(-5), now-5))
		}
		require.NoError(t, e.cluster.Seed(tbl, p))
	}
	return keys
}

// liveKeys reads keys at level at nowInSec (SELECT * FROM cf LIMIT 10000)
// and returns those a client sees, and how many keys' replicas disagreed.
func (e *env) liveKeys(t *testing.T, level consistency.Level, keys []string, nowInSec int64) (live []string, mismatches int) {
	t.Helper()
	res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: keys, Level: level,
		Limit: 10000, NowInSec: nowInSec})
	require.NoError(t, err)
	for _, kr := range res {
		require.NoError(t, kr.Err, kr.Key)
		if len(kr.Result.Visible().Rows) > 0 {
			live = append(live, kr.Key)
		}
		if kr.Result.Trace.DigestMismatch {
			mismatches++
		}
	}
	return live, mismatches
}

func TestDtestNoGhostsOfDeletedPartitions(t *testing.T) {
	for _, tc := range []struct {
		src              string
		written, deleted int
	}{
		{"deletion_test.py test_gc", 2, 1},
		{"range_ghost_test.py test_ghosts (1000 keys as 100)", 100, 50},
	} {
		for _, level := range []consistency.Level{consistency.One, consistency.Quorum, consistency.All} {
			t.Run(fmt.Sprintf("%s/%v", tc.src, level), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					o := policy(t, "NEVER")
					o.GCGraceSeconds, o.NoClusteringColumns = -1, true // gc_grace = 0
					e := newEnv(t, coordinator.Config{DefaultTable: o})
					keys := ghostKeys(t, e, tc.written, tc.deleted)
					want := keys[tc.deleted:]

					for _, at := range []int64{now - 5, now} { // the deletion's second, and after it
						live, mismatches := e.liveKeys(t, level, keys, at)
						assert.Equal(t, want, live, "read at %d", at)
						assert.Zero(t, mismatches)
					}
					for _, k := range keys[:tc.deleted] { // A flushed and compacted
						require.NoError(t, e.cluster.SeedOn(tbl, replica.NewPartition(k), A))
					}
					live, mismatches := e.liveKeys(t, level, keys, now)
					assert.Equal(t, want, live, "after A's compaction")
					assert.Zero(t, mismatches, "a purgeable tombstone is no disagreement")
					assert.Zero(t, e.c.Metrics().Total.RepairsSent)
				})
			})
		}
	}
}

// paging_test.py TestPagingData.test_group_by_paging's writes before its
// second half ("non static columns not empty", without its GROUP BY): a
// deleted static cell leaves its partition's rows with s null, a partition
// of static data alone shows as one row, a deleted partition and row show
// nothing; through runCQL, paged and with writes skewed.
func TestDtestStaticAndRowDeletions(t *testing.T) {
	tab := func() *cqlTable { return cqlSchema("a:int", []string{"b:int"}, "s:static", "c") }
	src := "paging_test.py TestPagingData.test_group_by_paging"
	runCQL(t, tab, coordinator.TableOptions{}, func(db *cqlDB) {
		db.update(map[string]any{"a": 1, "s": 1})
		db.update(map[string]any{"a": 4, "s": 4})
		db.update(map[string]any{"a": 3, "s": 3})
		db.deleteCols([]string{"s"}, 4)
		for _, w := range [][3]int{{1, 2, 1}, {1, 3, 2}, {1, 4, 2}, {4, 8, 2}, {5, 8, 2}} {
			db.insert(map[string]any{"a": w[0], "b": w[1], "c": w[2]})
		}
		db.deleteRows(1, rel("b", "=", 3))
		db.deleteRows(5)
	}, []cqlVector{
		{src: src, sel: cqlSelect{pks: []any{1, 3, 4, 5}, cols: []string{"a", "b", "s", "c"}},
			want: [][]any{r(1, 2, 1, 1), r(1, 4, 1, 2), r(3, nil, 3, nil), r(4, 8, nil, 2)}},
	})
}
