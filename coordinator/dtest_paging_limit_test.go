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

// limitRows is paging_test.py TestPagingWithModifiers.test_with_limit's
// data: partitions 1..6 of 5, 5, 10, 10, 20 and 30 rows, each row written
// at QUORUM to a pair of nodes in turn.
func limitRows() dtestScenario {
	var s dtestScenario
	n := 0
	for i, size := range []int{5, 5, 10, 10, 20, 30} {
		for j := range size {
			s = append(s, toNode(n%3+1, pk(fmt.Sprint(i+1), insPK(fmt.Sprintf("%02d", j), 1))))
			n++
		}
	}
	return s
}

// pageSizesOf reads req (Read, or ReadMany if keys has more than one) page
// after page and returns the sizes of the pages that are not empty.
func (e *env) pageSizesOf(t *testing.T, level consistency.Level, keys []string, limit, fetch int) []int {
	t.Helper()
	var sizes []int
	add := func(n int) {
		if n > 0 {
			sizes = append(sizes, n)
		}
	}
	if len(keys) == 1 {
		req := coordinator.Request{Table: tbl, Key: keys[0], Level: level, Query: replica.Query{Limit: limit},
			PageSize: fetch, NowInSec: now}
		for n := 0; ; n++ {
			require.Less(t, n, 50)
			res, err := e.c.Read(context.Background(), req)
			require.NoError(t, err)
			add(len(res.Visible().Rows))
			if fetch == 0 || res.PagingState == nil {
				return sizes
			}
			req.PagingState = res.PagingState
		}
	}
	req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: level, Limit: limit, PageSize: fetch, NowInSec: now}
	for n, more := 0, true; more; n++ {
		require.Less(t, n, 50)
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		add(len(manyRows(t, res)))
		if fetch == 0 {
			break
		}
		req, more = req.Next(res)
	}
	return sizes
}

// paging_test.py TestPagingWithModifiers.test_with_limit (CASSANDRA-8408
// for the cases without a limit or without a fetch size): the sizes of the
// pages of LIMIT l under fetch size f (0: none), of one partition or an IN.
func TestDtestPagingWithLimit(t *testing.T) {
	all := []string{"1", "2", "3", "4", "5", "6"}
	for _, c := range []struct {
		limit, fetch int
		keys         []string
		sizes        []int
	}{
		{10, 20, []string{"6"}, []int{10}},
		{10, 30, []string{"5"}, []int{10}},
		{20, 10, []string{"6"}, []int{10, 10}},
		{30, 10, []string{"5"}, []int{10, 10}},
		{20, 30, []string{"3"}, []int{10}},
		{30, 20, []string{"3"}, []int{10}},
		{9, 20, all, []int{9}},
		{10, 30, []string{"3", "4"}, []int{10}},
		{20, 10, []string{"4", "5"}, []int{10, 10}},
		{30, 10, []string{"3", "4"}, []int{10, 10}},
		{20, 30, []string{"1", "2"}, []int{10}},
		{30, 20, []string{"1", "2"}, []int{10}},
		{0, 20, all, []int{20, 20, 20, 20}},
		{0, 30, []string{"3", "4"}, []int{20}},
		{0, 10, []string{"4", "5"}, []int{10, 10, 10}},
		{0, 30, []string{"1", "2"}, []int{10}},
		{9, 0, all, []int{9}},
		{30, 0, []string{"1", "2"}, []int{10}},
	} {
		for _, v := range dtestVariants() {
			if v.pageSize != 0 {
				continue
			}
			synctest.Test(t, func(t *testing.T) {
				e := dtestEnv(t, limitRows(), v, coordinator.TableOptions{})
				assert.Equal(t, c.sizes, e.pageSizesOf(t, v.level, c.keys, c.limit, c.fetch),
					"%v: %v LIMIT %d fetch %d", v, c.keys, c.limit, c.fetch)
			})
		}
	}
}

// paging_test.py TestPagingDatasetChanges.test_data_change_impacting_-
// earlier_page and test_data_change_impacting_later_page, scaled down: id
// 1 and 2 of 5 rows each, at ALL. A row inserted into id 1 after a first
// page of 6 rows (all of id 1) does not show; one inserted into id 2 after
// a first page of 5 does.
func TestDtestPagingDataChanges(t *testing.T) {
	for _, c := range []struct {
		first    int
		insertTo string
		want     []int
	}{{6, "1", []int{6, 4}}, {5, "2", []int{5, 6}}} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
			seedRows(t, e, 5, "1", "2")
			req := coordinator.ManyRequest{Table: tbl, Keys: []string{"1", "2"}, Level: consistency.All, PageSize: c.first, NowInSec: now}
			var sizes []int
			for n, more := 0, true; more; n++ {
				require.Less(t, n, 10)
				res, err := e.c.ReadMany(context.Background(), req)
				require.NoError(t, err)
				if rows := manyRows(t, res); len(rows) > 0 {
					sizes = append(sizes, len(rows))
				}
				if n == 0 {
					require.NoError(t, e.cluster.SeedOn(tbl, merged(t, e.stored(t, A, c.insertTo), pk(c.insertTo, ins("foo", 2))), A, B, C))
					req.PageSize = 100
				}
				req, more = req.Next(res)
			}
			assert.Equal(t, c.want, sizes, "insert into %s", c.insertTo)
		})
	}
}

// stored is id's copy of k.
func (e *env) stored(t *testing.T, id, k string) replica.Partition {
	t.Helper()
	p, ok := e.replica(id).Partition(tbl, k)
	require.True(t, ok, "%s holds no %s", id, k)
	return p
}

// paging_test.py TestPagingDatasetChanges.test_node_unavailabe_during_paging:
// a node stops after the first page of a read at ALL; the next page fails
// (here before anything is sent, with an UnavailableError for ALL, 2 of 3
// alive), and resumes once the node is back.
func TestDtestNodeUnavailableDuringPaging(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 5, "1", "2")
		for _, k := range []string{"1", "2"} {
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
		}
		req := coordinator.ManyRequest{Table: tbl, Keys: []string{"1", "2"}, Level: consistency.All, PageSize: 4, NowInSec: now}
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err)
		assert.Equal(t, []string{"1/1", "1/2", "1/3", "1/4"}, manyRows(t, res))
		next, more := req.Next(res)
		require.True(t, more)
		require.NoError(t, e.cluster.SetAlive(A, false))
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		var unavailable *consistency.UnavailableError
		require.ErrorAs(t, res[0].Err, &unavailable)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.All, Required: 3, Alive: 2}, *unavailable)
		require.NoError(t, e.cluster.SetAlive(A, true))
		res, err = e.c.ReadMany(context.Background(), next)
		require.NoError(t, err)
		assert.Equal(t, []string{"1/5", "2/1", "2/2", "2/3"}, manyRows(t, res))
	})
}

// paging_test.py TestPagingData.test_per_partition_limit_paging
// (CASSANDRA-11535), under its page sizes, with the table scans read as IN
// over every key: partitions 0..4 of rows 0..4, each row written at QUORUM
// to a pair of nodes in turn. TestDtestPerPartitionLimit runs it unpaged.
func TestDtestPerPartitionLimitPaging(t *testing.T) {
	var s dtestScenario
	for i := range 25 {
		s = append(s, toNode(i%3+1, pk(fmt.Sprint(i/5), insV(fmt.Sprint(i%5), 1))))
	}
	all, in := []string{"0", "1", "2", "3", "4"}, []string{"1", "2", "3"}
	gt1 := []replica.Slice{{Start: replica.StartAfter("1"), End: replica.Top()}}
	rows := func(keys []string, cks ...string) []string {
		var out []string
		for _, k := range keys {
			for _, ck := range cks {
				out = append(out, k+"/"+ck)
			}
		}
		return out
	}
	cases := []struct {
		keys  []string
		q     replica.Query
		limit int
		want  []string
	}{
		{all, replica.Query{Limit: 2}, 0, rows(all, "0", "1")},
		{all, replica.Query{Limit: 2}, 6, rows(all, "0", "1")[:6]},
		{all, replica.Query{Limit: 2}, 5, rows(all, "0", "1")[:5]},
		{in, replica.Query{Limit: 3}, 0, rows(in, "0", "1", "2")},
		{in, replica.Query{Limit: 3}, 7, rows(in, "0", "1", "2")[:7]},
		{[]string{"1"}, replica.Query{Limit: 4}, 0, rows([]string{"1"}, "0", "1", "2", "3")},
		{[]string{"1"}, replica.Query{Limit: 3}, 0, rows([]string{"1"}, "0", "1", "2")},
		{[]string{"1"}, replica.Query{Limit: 4, Reversed: true}, 0, rows([]string{"1"}, "4", "3", "2", "1")},
		{[]string{"1"}, replica.Query{Limit: 4}, 3, rows([]string{"1"}, "0", "1", "2")},
		{[]string{"1"}, replica.Query{Slices: gt1, Limit: 2}, 0, rows([]string{"1"}, "2", "3")},
		{[]string{"1"}, replica.Query{Slices: gt1, Limit: 2, Reversed: true}, 0, rows([]string{"1"}, "4", "3")},
	}
	for _, v := range dtestVariants() {
		if v.pageSize != 0 {
			continue
		}
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			for _, size := range []int{2, 3, 4, 5, 15, 16, 17, 100} {
				for _, c := range cases {
					var got []string
					for _, pg := range pagesOf(t, e.c, coordinator.ManyRequest{Table: tbl, Keys: c.keys, Level: v.level,
						Query: c.q, Limit: c.limit, PageSize: size, NowInSec: now}) {
						if c.q.Reversed {
							pg = reverse(pg) // a page's rows come ascending
						}
						got = append(got, pg...)
					}
					assert.Equal(t, c.want, got, "%v pages of %d: %v PER PARTITION LIMIT %d LIMIT %d",
						v, size, c.keys, c.q.Limit, c.limit)
				}
			}
		})
	}
}
