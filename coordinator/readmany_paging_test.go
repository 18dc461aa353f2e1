package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// PER PARTITION LIMIT 3 LIMIT 4 over three partitions of five rows: a
// reaches its per-partition limit and is done, b is cut after one row and
// its pages return the two its limit leaves, c returns nothing. A paging
// state that ignored the per-partition limit had a continue past row 3,
// and b's pages return rows 2, 3 and 4.
func TestReadManyPagesStopAtThePerPartitionLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, k := range []string{"a", "b", "c"} {
			require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(k, ins("1", 1), ins("2", 1), ins("3", 1), ins("4", 1), ins("5", 1))))
		}
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a", "b", "c"}, Level: consistency.Quorum,
			Query: replica.Query{Limit: 3}, Limit: 4, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		assert.Equal(t, []string{"a/1", "a/2", "a/3", "b/1"}, manyRows(t, res))
		assert.Equal(t, []bool{false, true, true}, []bool{res[0].Cut, res[1].Cut, res[2].Cut})
		_, more := req.NextPage(res[0])
		assert.False(t, more, "a reached its per-partition limit")
		_, more = req.NextPage(res[2])
		assert.False(t, more, "c is after the limit")

		next, more := req.NextPage(res[1])
		require.True(t, more)
		page, err := e.c.Read(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"2", "3"}, clusterings(page))
		assert.Nil(t, page.PagingState, "b's per-partition limit is reached")

		pp := req
		pp.Limit = 0
		res, err = e.c.ReadMany(context.Background(), pp)
		require.NoError(t, err)
		for _, r := range res {
			assert.Len(t, r.Result.Visible().Rows, 3)
			assert.Nil(t, r.Result.PagingState, "%s reached its per-partition limit", r.Key)
		}
	})
}

// A cut key's pages come in the size of the key's read (LIMIT 2 here, below
// the per-partition limit of 5), and the last stops at that limit.
func TestReadManyPagesOfACutKeyCountTowardsItsLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		var rows []replica.Row
		for i := range 9 {
			rows = append(rows, ins(fmt.Sprint(i), 1))
		}
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition("a", rows...)))
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"a"}, Level: consistency.Quorum,
			Query: replica.Query{Limit: 5}, Limit: 2, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		got := [][]string{clusterings(res[0].Result)}
		for next, more := req.NextPage(res[0]); more; next.PagingState = res[0].Result.PagingState {
			res[0].Result, err = e.c.Read(context.Background(), next)
			require.NoError(t, err)
			got = append(got, clusterings(res[0].Result))
			more = res[0].Result.PagingState != nil
		}
		assert.Equal(t, [][]string{{"0", "1"}, {"2", "3"}, {"4"}}, got)
	})
}

// inQueryOrder returns the rows res shows in q's order: a partition holds
// its rows in clustering order.
func inQueryOrder(res coordinator.Result, q replica.Query) []replica.ViewRow {
	rows := res.Visible().Rows
	if q.Reversed {
		slices.Reverse(rows)
	}
	return rows
}

// clusterings lists the clustering keys of the rows res shows.
func clusterings(res coordinator.Result) []string {
	var cks []string
	for _, r := range res.Visible().Rows {
		cks = append(cks, r.Clustering)
	}
	return cks
}

// For random partitions, queries, per-partition limits and limits across
// keys, an IN read and its keys' pages, followed to the end, return of
// every key up to the limit's cut exactly what reading it alone under its
// per-partition limit does, and nothing of the keys after; the IN read
// itself returns at most its limit.
func TestReadManyPagingHonoursBothLimits(t *testing.T) {
	cl := instantCluster(t)
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, DefaultTable: policy(t, "NEVER")})
	require.NoError(t, err)
	defer c.Close()
	g := newPageGen(false)
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		n++
		req := coordinator.ManyRequest{Table: tbl, Level: consistency.All, Query: g.query(t), Columns: g.columns(t),
			Limit: rapid.IntRange(0, 8).Draw(t, "limit"), NowInSec: now}
		want := map[string][]replica.ViewRow{}
		for i := range rapid.IntRange(1, 4).Draw(t, "keys") {
			k := fmt.Sprint("many", n, "/", i)
			req.Keys = append(req.Keys, k)
			vs := g.versions(t, k, 3)
			for j, r := range cl.Replicas() {
				require.NoError(t, r.Seed(tbl, vs[j]))
			}
			rows, _ := wholeRead(t, vs, coordinator.Request{Query: req.Query, Columns: req.Columns})
			if pp := req.Query.Limit; pp > 0 && len(rows) > pp {
				rows = rows[:pp]
			}
			want[k] = rows
		}
		res, err := c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		left, total := req.Limit, 0
		for _, r := range res {
			require.NoError(t, r.Err)
			first := inQueryOrder(r.Result, req.Query)
			total += len(first)
			if req.Limit > 0 && left == 0 {
				require.Empty(t, first, "%s is after the limit", r.Key)
				_, more := req.NextPage(r)
				require.False(t, more, "%s is after the limit", r.Key)
				continue
			}
			got := first
			for next, more := req.NextPage(r); more; {
				page, err := c.Read(context.Background(), next)
				require.NoError(t, err)
				got = append(got, inQueryOrder(page, req.Query)...)
				next.PagingState, more = page.PagingState, page.PagingState != nil
				require.Less(t, len(got), 40, "paging does not end")
			}
			require.True(t, slices.EqualFunc(got, want[r.Key], replica.ViewRow.Equal), "%s: got %v\nwant %v",
				r.Key, replica.View{Rows: got}, replica.View{Rows: want[r.Key]})
			left = max(left-len(first), 0)
		}
		require.True(t, req.Limit == 0 || total <= req.Limit, "%d rows over a limit of %d", total, req.Limit)
	})
}
