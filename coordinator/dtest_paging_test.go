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

// Ports of cassandra-dtest paging_test.py's TestPagingWithDeletions and
// TestPagingDatasetChanges: SELECT * WHERE id IN (…) paged by the driver.
// The dtest deletes at ALL; here each deletion reaches a quorum of the
// nodes (node n and the next, turn by turn), and the reads run at ALL and
// at QUORUM from every pair (dtestVariants), so that the pages must
// reconcile and protect against short reads across partitions.

// pagedKeys are the partitions of TestPagingWithDeletions.setup_data, id 1
// to 5, of 40 rows each.
var pagedKeys = []string{"1", "2", "3", "4", "5"}

func pagedRows() dtestScenario {
	var s dtestScenario
	for _, k := range pagedKeys {
		var rows []replica.Row
		for i := range 40 {
			rows = append(rows, insV(fmt.Sprintf("%02d", i), 1))
		}
		s = append(s, allNodes(pk(k, rows...)))
	}
	return s
}

// manyPages reads keys at v's level in pages of size, and returns the
// rows of every page that is not empty (the dtest's PageFetcher counts
// those only).
func (e *env) manyPages(t *testing.T, v dtestVariant, keys []string, size int, nowAt func(page int) int64) [][]string {
	t.Helper()
	req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: v.level, PageSize: size}
	var pages [][]string
	for n, more := 0, true; more; n++ {
		require.Less(t, n, 50, "%v: paging does not end", v)
		req.NowInSec = nowAt(n)
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err, "%v", v)
		if rows := manyRows(t, res); len(rows) > 0 {
			pages = append(pages, rows)
		}
		req, more = req.Next(res)
	}
	return pages
}

// runPagedDtest checks every variant of s: pages of 25 whose sizes are
// sizes, holding the rows of pagedKeys but those deleted says.
func runPagedDtest(t *testing.T, s dtestScenario, deleted func(k, ck string) bool, sizes ...int) {
	t.Helper()
	var want []string
	for _, k := range pagedKeys {
		for i := range 40 {
			if ck := fmt.Sprintf("%02d", i); !deleted(k, ck) {
				want = append(want, k+"/"+ck)
			}
		}
	}
	for _, v := range dtestVariants() {
		if v.pageSize != 0 {
			continue
		}
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			pages := e.manyPages(t, v, pagedKeys, 25, func(int) int64 { return now })
			var got []string
			var lens []int
			for _, pg := range pages {
				got = append(got, pg...)
				lens = append(lens, len(pg))
			}
			assert.Equal(t, sizes, lens, "%v", v)
			assert.Equal(t, want, got, "%v", v)
		})
	}
}

// quorumWrites spreads ws over the nodes: the i-th reaches node i%3+1 (and
// the next one, at QUORUM).
func quorumWrites(ws ...replica.Partition) []dtestWrite {
	var out []dtestWrite
	for i, w := range ws {
		out = append(out, toNode(i%3+1, w))
	}
	return out
}

// paging_test.py TestPagingWithDeletions.test_single_partition_deletions
// and test_multiple_partition_deletions.
func TestDtestPagingWithPartitionDeletions(t *testing.T) {
	gone := func(k string) replica.Partition { return pk(k).WithDeletion(replica.DeletedAt(2, now-100)) }
	s := pagedRows()
	deleted := map[string]bool{}
	for _, c := range []struct {
		key   string
		sizes []int
	}{
		{"1", []int{25, 25, 25, 25, 25, 25, 10}},
		{"3", []int{25, 25, 25, 25, 20}},
		{"5", []int{25, 25, 25, 5}},
		{"4", []int{25, 15}},
	} {
		s = append(s, quorumWrites(gone(c.key))...)
		deleted[c.key] = true
		t.Run("delete id="+c.key, func(t *testing.T) {
			runPagedDtest(t, s, func(k, _ string) bool { return deleted[k] }, c.sizes...)
		})
	}
	t.Run("delete id in (2,3,4,5)", func(t *testing.T) {
		s := append(pagedRows(), quorumWrites(gone("2"), gone("3"), gone("4"), gone("5"))...)
		runPagedDtest(t, s, func(k, _ string) bool { return k != "1" }, 25, 15)
	})
}

// paging_test.py TestPagingWithDeletions.test_single_row_deletions: the
// first row, the 101st of the rest (id 3, its 22nd), the last, then every
// row of the last page, one by one.
func TestDtestPagingWithRowDeletions(t *testing.T) {
	s := pagedRows()
	deleted := map[string]bool{}
	step := func(name string, rows []string, sizes ...int) {
		var ws []replica.Partition
		for _, r := range rows {
			var k, ck string
			_, err := fmt.Sscanf(r, "%1s/%2s", &k, &ck)
			require.NoError(t, err)
			ws = append(ws, pk(k, del(ck, 2)))
			deleted[r] = true
		}
		s = append(s, quorumWrites(ws...)...)
		t.Run(name, func(t *testing.T) {
			runPagedDtest(t, s, func(k, ck string) bool { return deleted[k+"/"+ck] }, sizes...)
		})
	}
	full := []int{25, 25, 25, 25, 25, 25, 25}
	step("first", []string{"1/00"}, append(full, 24)...)
	step("middle", []string{"3/21"}, append(full, 23)...)
	step("last", []string{"5/39"}, append(full, 22)...)
	var lastPage []string
	for i := 17; i < 39; i++ {
		lastPage = append(lastPage, fmt.Sprintf("5/%02d", i))
	}
	step("last page", lastPage, full...)
}

// paging_test.py TestPagingWithDeletions.test_multiple_row_deletions: one
// statement deletes five rows of id 3, the 101st to 105th of all (its 21st
// to 25th), here at QUORUM: 7 pages of 25, then 20.
func TestDtestPagingWithMultipleRowDeletions(t *testing.T) {
	var rows []replica.Row
	deleted := map[string]bool{}
	for i := 20; i < 25; i++ {
		ck := fmt.Sprintf("%02d", i)
		rows = append(rows, del(ck, 2))
		deleted["3/"+ck] = true
	}
	s := append(pagedRows(), quorumWrites(pk("3", rows...))...)
	runPagedDtest(t, s, func(k, ck string) bool { return deleted[k+"/"+ck] }, 25, 25, 25, 25, 25, 25, 25, 20)
}

// paging_test.py TestPagingDatasetChanges.test_row_TTL_expiry_during_paging,
// scaled down: id 1 and 2 hold 3 and 4 rows of TTL 10, id 3 five rows
// without; pages of 3 at ALL. The first page is read before the rows
// expire, the next ones 15 s later: pages of 3, 3 and 2 rows, none of id 2.
func TestDtestPagingRowTTLExpiryDuringPaging(t *testing.T) {
	ttl := func(ck string) replica.Row {
		return replica.NewRow(ck).WithLiveness(replica.InsertedWithTTL(1, 10, now+5))
	}
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seed := map[string][]replica.Row{
			"1": {ttl("a"), ttl("b"), ttl("c")},
			"2": {ttl("a"), ttl("b"), ttl("c"), ttl("d")},
			"3": {insPK("a", 1), insPK("b", 1), insPK("c", 1), insPK("d", 1), insPK("e", 1)},
		}
		for k, rows := range seed {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.Seed(tbl, pk(k, rows...)))
		}
		v := dtestVariant{level: consistency.All}
		pages := e.manyPages(t, v, []string{"1", "2", "3"}, 3, func(n int) int64 {
			if n == 0 {
				return now
			}
			return now + 15
		})
		assert.Equal(t, [][]string{{"1/a", "1/b", "1/c"}, {"3/a", "3/b", "3/c"}, {"3/d", "3/e"}}, pages)
	})
}

// cellRows is pagedRows with col1..col3 = the key, written everywhere.
func cellRows() dtestScenario {
	var s dtestScenario
	for _, k := range pagedKeys {
		var rows []replica.Row
		for i := range 40 {
			rows = append(rows, replica.NewRow(fmt.Sprintf("%02d", i), replica.Live("col1", k, 1),
				replica.Live("col2", k, 1), replica.Live("col3", k, 1)).WithLiveness(replica.Inserted(1)))
		}
		s = append(s, allNodes(pk(k, rows...)))
	}
	return s
}

// paging_test.py TestPagingWithDeletions.test_single_cell_deletions and
// test_multiple_cell_deletions: cells deleted at QUORUM from rows of
// several partitions leave every row, with nulls, in 8 pages of 25.
func TestDtestPagingWithCellDeletions(t *testing.T) {
	s := cellRows()
	nulls := map[string]bool{} // key/ck/column
	deleteCells := func(k string, from, to int, cols ...string) {
		var ws []replica.Partition
		for i := from; i < to; i++ {
			ck := fmt.Sprintf("%02d", i)
			var cells []replica.Cell
			for _, col := range cols {
				cells = append(cells, replica.Tombstone(col, 2, now-100))
				nulls[k+"/"+ck+"/"+col] = true
			}
			ws = append(ws, pk(k, replica.NewRow(ck, cells...)))
		}
		s = append(s, quorumWrites(ws...)...)
	}
	deleteCells("5", 0, 20, "col1")
	deleteCells("1", 20, 40, "col2")
	deleteCells("3", 0, 40, "col3")
	deleteCells("2", 20, 40, "col1", "col2")
	deleteCells("4", 0, 40, "col2", "col3")
	var want []string
	for _, k := range pagedKeys {
		for i := range 40 {
			id := fmt.Sprintf("%s/%02d", k, i)
			r := id
			for _, col := range []string{"col1", "col2", "col3"} {
				if nulls[id+"/"+col] {
					r += " null"
				} else {
					r += " " + k
				}
			}
			want = append(want, r)
		}
	}
	for _, v := range dtestVariants() {
		if v.pageSize != 0 {
			continue
		}
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			assert.Equal(t, want, e.pagedMany(t, v, pagedKeys, replica.Query{}, 25, "col1", "col2", "col3"), "%v", v)
		})
	}
}

// paging_test.py TestPagingWithDeletions.test_ttl_deletions: every row
// written again with TTL 15 (here at QUORUM, each partition to a pair of
// nodes): 8 pages of 25 before the TTL passes; after it, no row. (At
// gc_grace_seconds 0 the rows come back, in Cassandra too: a replica
// purges the expired write at once, and the one the write missed still
// holds the rows it overwrote.)
func TestDtestPagingOverExpiredRows(t *testing.T) {
	s := cellRows()
	for i, k := range pagedKeys {
		var rows []replica.Row
		for j := range 40 {
			rows = append(rows, replica.NewRow(fmt.Sprintf("%02d", j), replica.Expiring("col1", k, 2, 15, now+15),
				replica.Expiring("col2", k, 2, 15, now+15), replica.Expiring("col3", k, 2, 15, now+15)).
				WithLiveness(replica.InsertedWithTTL(2, 15, now+15)))
		}
		s = append(s, toNode(i%3+1, pk(k, rows...)))
	}
	for _, v := range dtestVariants() {
		if v.pageSize != 0 {
			continue
		}
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			var sizes []int
			for _, pg := range e.manyPages(t, v, pagedKeys, 25, func(int) int64 { return now }) {
				sizes = append(sizes, len(pg))
			}
			assert.Equal(t, []int{25, 25, 25, 25, 25, 25, 25, 25}, sizes, "%v before", v)
			assert.Empty(t, e.manyPages(t, v, pagedKeys, 25, func(int) int64 { return now + 16 }), "%v after", v)
		})
	}
}
