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
	"github.com/readpath/readpath/replica/replicatest"
)

// pageSizes reads req in pages of the given sizes, the last repeated, and
// returns each page's clustering keys.
func pageSizes(t *testing.T, c *coordinator.Coordinator, req coordinator.Request, sizes ...int) [][]string {
	t.Helper()
	var got [][]string
	for i := 0; ; i++ {
		require.Less(t, i, 20, "paging does not end")
		req.PageSize = sizes[min(i, len(sizes)-1)]
		res, err := c.Read(context.Background(), req)
		require.NoError(t, err)
		got = append(got, clusterings(res))
		if res.PagingState == nil {
			return got
		}
		req.PagingState = res.PagingState
	}
}

// clusterings lists the clustering keys of the rows res shows.
func clusterings(res coordinator.Result) []string {
	var cks []string
	for _, r := range res.Visible().Rows {
		cks = append(cks, r.Clustering)
	}
	return cks
}

// LIMIT 5 read in pages of 2 over replicas that disagree (short-read
// protection fills each page): three pages and the limit's five rows, in
// either order; pages of 2 then 4 end at the limit too; without a limit,
// pages of 3 go to the end.
func TestPageSizeUnderALimit(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			all := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
			e := srpEnv(t, coordinator.TableOptions{},
				seeded(t, all, del("2", 20)), seeded(t, all, del("5", 20)), seeded(t, all))
			req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All,
				Query: replica.Query{Limit: 5, Reversed: reversed}, NowInSec: now}
			first5, rest := []string{"1", "3", "4", "6", "7"}, []string{"8", "9"}
			if reversed {
				first5, rest = []string{"9", "8", "7", "6", "4"}, []string{"3", "1"}
			}
			sorted := func(pages ...[]string) [][]string { // a page's rows are in clustering order
				for i, p := range pages {
					pages[i] = slices.Sorted(slices.Values(p))
				}
				return pages
			}
			assert.Equal(t, sorted(first5[:2], first5[2:4], first5[4:]), pageSizes(t, e.c, req, 2), "reversed %v", reversed)
			assert.Equal(t, sorted(first5[:2], first5[2:]), pageSizes(t, e.c, req, 2, 4), "reversed %v", reversed)
			req.Query.Limit = 0
			every := append(slices.Clone(first5), rest...)
			assert.Equal(t, sorted(every[:3], every[3:6], every[6:]), pageSizes(t, e.c, req, 3), "reversed %v", reversed)
		})
	}
}

func TestPageSizeMayNotBeNegative(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		_, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One, PageSize: -1})
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest)
		assert.ErrorContains(t, err, "negative page size -1")
	})
}

// For random disagreeing replicas, queries and limits, reading in pages
// of random sizes, changed from page to page, returns exactly the rows
// reading the query whole does, up to its limit, and no page holds more
// than its size.
func TestPageSizeReturnsTheLimitedView(t *testing.T) {
	cl, c := propertyCoordinator(t, policy(t, "NEVER"))
	g := newPageGen(false)
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		n++
		req := coordinator.Request{Table: tbl, Key: fmt.Sprint("sized", n), Level: consistency.All,
			Query: g.query(t), Columns: g.columns(t), NowInSec: now}
		pageAgainstWhole(t, c, cl, req, g.versions(t, req.Key, 3), false)
	})
}

// pageAgainstWhole seeds the replicas with vs, then pages through req,
// each page of a size from 1 to 4 (after the first, 0 too, none, if
// dropped), and checks that the pages hold what reading req whole does,
// up to its limit, and that no page holds more rows than its size.
func pageAgainstWhole(t *rapid.T, c *coordinator.Coordinator, cl *replicatest.Cluster, req coordinator.Request,
	vs []replica.Partition, dropped bool) {
	for i, r := range cl.Replicas() {
		require.NoError(t, r.Seed(tbl, vs[i]))
	}
	want, _ := wholeRead(t, vs, req)
	if l := req.Query.Limit; l > 0 && len(want) > l {
		want = want[:l]
	}
	var got []replica.ViewRow
	for page := 0; ; page++ {
		require.Less(t, page, 40, "paging does not end")
		least := 1
		if dropped && page > 0 {
			least = 0
		}
		req.PageSize = rapid.IntRange(least, 4).Draw(t, "page size")
		res, err := c.Read(context.Background(), req)
		require.NoError(t, err)
		rows := inQueryOrder(res, req.Query)
		if req.PageSize > 0 {
			require.LessOrEqual(t, len(rows), req.PageSize, "page %d", page)
		}
		got = append(got, rows...)
		if res.PagingState == nil {
			break
		}
		req.PagingState = res.PagingState
	}
	require.True(t, slices.EqualFunc(got, want, replica.ViewRow.Equal), "got %v\nwant %v", replica.View{Rows: got}, replica.View{Rows: want})
}

// A paging state claiming more rows remaining than the query's limit is
// held to the limit: a forged state may count the rows afresh, but not
// read past the limit in its continuation.
func TestPageSizeHoldsAStateToTheLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		all := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all), seeded(t, all))
		q := replica.Query{Limit: 3}
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: q, PagingState: forgedFor(t, q), NowInSec: now}
		assert.Equal(t, [][]string{{"2", "3"}, {"4"}}, pageSizes(t, e.c, req, 2))

		many := coordinator.ManyRequest{Table: tbl, Keys: []string{key}, Level: consistency.All, Query: replica.Query{Limit: 2},
			PageSize: 5, PagingState: forgedFor(t, replica.Query{Limit: 2}), NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), many)
		require.NoError(t, err)
		assert.Equal(t, []string{key + "/2", key + "/3"}, manyRows(t, res), "the per-partition limit holds")
	})
}

// forgedFor is a state of key after row 1 under q claiming 100 rows left.
func forgedFor(t *testing.T, q replica.Query) []byte {
	t.Helper()
	b, err := replica.NewPagingState(tbl, key, q, nil, "1").WithRemaining(100).MarshalBinary()
	require.NoError(t, err)
	return b
}

// A read under LIMIT 5 whose first page had a size of 2 may go on without
// one: its state's rows remaining still end it at the limit.
func TestPageSizeMayBeDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		all := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all), seeded(t, all))
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: replica.Query{Limit: 5}, NowInSec: now}
		assert.Equal(t, [][]string{{"1", "2"}, {"3", "4", "5"}}, pageSizes(t, e.c, req, 2, 0))
	})
}

// A state made without a PageSize, where the limit was the page size,
// carries no rows remaining: a PageSize first given with it makes the
// limit the LIMIT over the pages from its row on, counted afresh.
func TestPageSizeFirstGivenCountsTheLimitAfresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		all := []string{"01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"}
		e := srpEnv(t, coordinator.TableOptions{}, seeded(t, all), seeded(t, all), seeded(t, all))
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All, Query: replica.Query{Limit: 5}, NowInSec: now}
		assert.Equal(t, [][]string{all[:5], all[5:8], all[8:10]}, pageSizes(t, e.c, req, 0, 3))
	})
}
