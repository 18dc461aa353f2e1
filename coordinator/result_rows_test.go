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

// VisibleRows yields a page's rows in the query's order, descending for a
// reversed one, over every page of it, and stops when the loop does.
func TestVisibleRowsComeInTheQuerysOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(key,
			replica.NewRow("a", replica.Live("v", "1", 10)), replica.NewRow("b", replica.Live("v", "2", 10)),
			replica.NewRow("c", replica.Live("v", "3", 10)), replica.NewRow("d", replica.Live("v", "4", 10)))))
		for _, c := range []struct {
			reversed bool
			want     []string
		}{
			{false, []string{"a", "b", "c", "d"}},
			{true, []string{"d", "c", "b", "a"}},
		} {
			req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All, PageSize: 2,
				Query: replica.Query{Reversed: c.reversed}}
			var got []string
			for {
				res, err := e.c.Read(context.Background(), req)
				require.NoError(t, err)
				for row := range res.VisibleRows() {
					got = append(got, row.Clustering)
				}
				if res.PagingState == nil {
					break
				}
				req.PagingState = res.PagingState
			}
			assert.Equal(t, c.want, got, "reversed %v", c.reversed)
		}
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All,
			Query: replica.Query{Reversed: true}})
		require.NoError(t, err)
		n := 0
		for row := range res.VisibleRows() {
			assert.Equal(t, "d", row.Clustering, "the last first")
			if n++; n == 1 {
				break
			}
		}
		assert.Equal(t, 1, n)
	})
}
