package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A table without clustering columns holds one row a partition, so a page
// that returned it ends the partition: Cassandra's pager sees the row's
// empty clustering and is exhausted (AbstractQueryPager.Pager.onClose sets
// remainingInPartition to 0), and SELECT * FROM t WHERE pk = ? LIMIT 1
// returns the row and no paging state. A state there cost the client a
// round trip for an empty page.
func TestNoClusteringColumnsPageOfItsRowHasNoPagingState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: coordinator.TableOptions{NoClusteringColumns: true}})
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(key, ins("", 10))))
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum,
			Query: replica.Query{Limit: 1}, NowInSec: now})
		require.NoError(t, err)
		require.Len(t, res.Visible().Rows, 1)
		assert.Nil(t, res.PagingState, "the partition's only row was returned: nothing can follow it")
	})
}

// The same over an IN query, one row a page: as Cassandra's
// MultiPartitionPager moves past a partition whose row was returned, two
// keys of one row each take two pages, not a third one empty.
func TestNoClusteringColumnsReadManyPagesEndWithTheRows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: coordinator.TableOptions{NoClusteringColumns: true}})
		for _, k := range []string{"a", "b"} {
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, ins("", 10))))
		}
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b"}, Level: consistency.Quorum, Limit: 1, NowInSec: now}
		assert.Equal(t, [][]string{{"a/"}, {"b/"}}, pagesOf(t, e.c, req))
	})
}

// paging_test.py TestPagingData.test_paging_with_no_clustering_columns
// (CASSANDRA-11208), its IN queries, and TestPagingSize's tests of a table
// without clustering columns as IN queries: WHERE a IN (1, 2, 3, 4) in
// pages of 2, 3, 4, 5, 7 and 10 returns the four rows (with LIMIT 3 the
// first three), in as many pages as they fill and no empty one after;
// nine rows in pages of 5 come in pages of 5 and 4, five in one of 5,
// and no rows in one empty page.
func TestDtestPagingWithoutClusteringColumns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: coordinator.TableOptions{NoClusteringColumns: true}})
		var keys []string
		for i := range 9 {
			k := string(rune('1' + i))
			keys = append(keys, k)
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, ins("", 10))))
		}
		lens := func(req coordinator.ManyRequest) (rows []string, lens []int) {
			for _, page := range pagesOf(t, e.c, req) {
				rows, lens = append(rows, page...), append(lens, len(page))
			}
			return rows, lens
		}
		in := coordinator.ManyRequest{Table: tbl, Keys: keys[:4], Level: consistency.All, NowInSec: now}
		for _, size := range []int{2, 3, 4, 5, 7, 10} {
			in.PageSize, in.Limit = size, 0
			rows, got := lens(in)
			assert.Equal(t, []string{"1/", "2/", "3/", "4/"}, rows, "pages of %d", size)
			assert.Len(t, got, (4+size-1)/size, "pages of %d: %v", size, got)

			in.Limit = 3
			rows, got = lens(in)
			assert.Equal(t, []string{"1/", "2/", "3/"}, rows, "LIMIT 3 in pages of %d", size)
			assert.Len(t, got, (3+size-1)/size, "LIMIT 3 in pages of %d: %v", size, got)
		}
		for _, c := range []struct {
			keys []string
			size int
			want []int
		}{
			{keys, 5, []int{5, 4}},              // test_with_more_results_than_page_size
			{keys[:5], 5, []int{5}},             // test_with_equal_results_to_page_size
			{keys[:5], 100, []int{5}},           // test_with_less_results_than_page_size
			{[]string{"x", "y"}, 100, []int{0}}, // test_with_no_results
		} {
			_, got := lens(coordinator.ManyRequest{Table: tbl, Keys: c.keys, Level: consistency.All, PageSize: c.size, NowInSec: now})
			assert.Equal(t, c.want, got, "%d keys in pages of %d", len(c.keys), c.size)
		}
	})
}
