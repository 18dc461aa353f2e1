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
