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

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Ports of cassandra-dtest paging_test.py's tests of paging with static
// columns and of range name queries, over IN queries (ReadMany) and one
// partition (Read), with every page size of the dtest. Where the dtest
// writes at ONE with every node up, some of the writes here reach a
// quorum of the nodes only, and the reads run at ALL and at QUORUM from
// every pair (dtestVariants).

// cqlRows returns the rows a client sees in v, one string a row:
// key/clustering and the value of each column, "null" for none; a static
// column shows on every row.
func cqlRows(v replica.View, columns ...string) []string {
	var out []string
	for _, r := range v.Rows {
		s := v.Key + "/" + r.Clustering
		for _, col := range columns {
			val := "null"
			for _, c := range slices.Concat(v.Static, r.Cells) {
				if c.Column == col {
					val = string(c.Value)
				}
			}
			s += " " + val
		}
		out = append(out, s)
	}
	return out
}

// pagedMany reads keys at v's level in pages of size (0: unpaged),
// reading columns, and returns every row as cqlRows shows it.
func (e *env) pagedMany(t *testing.T, v dtestVariant, keys []string, q replica.Query, size int, columns ...string) []string {
	t.Helper()
	req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: v.level, Query: q, PageSize: size, NowInSec: now,
		Columns: columns}
	var got []string
	for n, more := 0, true; more; n++ {
		require.Less(t, n, 100, "%v: paging does not end", v)
		res, err := e.c.ReadMany(context.Background(), req)
		require.NoError(t, err, "%v", v)
		for _, r := range res {
			require.NoError(t, r.Err)
			got = append(got, cqlRows(r.Result.Visible(), columns...)...)
		}
		if size == 0 {
			break
		}
		req, more = req.Next(res)
	}
	return got
}

// pagedOne reads k at v's level in pages of size, reading columns, and
// returns its rows in the query's order as cqlRows shows them.
func (e *env) pagedOne(t *testing.T, v dtestVariant, k string, q replica.Query, size int, columns ...string) []string {
	t.Helper()
	req := coordinator.Request{Table: tbl, Key: k, Level: v.level, Query: q, PageSize: size, NowInSec: now, Columns: columns}
	var got []string
	for n := 0; ; n++ {
		require.Less(t, n, 100, "%v: paging does not end", v)
		res, err := e.c.Read(context.Background(), req)
		require.NoError(t, err, "%v", v)
		rows := cqlRows(res.Visible(), columns...)
		if q.Reversed {
			slices.Reverse(rows)
		}
		got = append(got, rows...)
		if res.PagingState == nil {
			return got
		}
		req.PagingState = res.PagingState
	}
}

var staticSelectors = [][]string{{"c", "s1", "s2"}, {"c", "s1"}, {"c", "s2"}, {"c"}}

// want8502 is the rows of keys, clusterings cks, with c = the clustering,
// s1 = 17 and s2 = 42 as columns selects them.
func want8502(keys, cks []string, columns []string) []string {
	var out []string
	for _, k := range keys {
		for _, ck := range cks {
			s := k + "/" + ck
			for _, col := range columns {
				s += " " + map[string]string{"c": ck, "s1": "17", "s2": "42"}[col]
			}
			out = append(out, s)
		}
	}
	return out
}

// paging_test.py TestPagingData.test_static_columns_paging
// (CASSANDRA-8502): partitions 0..3 of rows 0..3 (c = b) with static s1 =
// 17 and s2 = 42, read with IN (0, 1, 2, 3), and partition 99 of rows
// 00..15 read ascending and descending, by every selector and page size.
// Here s1 was written at QUORUM, one partition's to each pair of nodes.
func TestDtestStaticColumnsPaging(t *testing.T) {
	keys, cks := []string{"0", "1", "2", "3"}, []string{"0", "1", "2", "3"}
	var wide []string
	for i := range 16 {
		wide = append(wide, fmt.Sprintf("%02d", i))
	}
	var s dtestScenario
	cell := func(col, ck string) replica.Cell { return replica.Live(col, ck, 1) }
	for i, k := range append(slices.Clone(keys), "99") {
		var rows []replica.Row
		for _, ck := range map[bool][]string{false: cks, true: wide}[k == "99"] {
			rows = append(rows, replica.NewRow(ck, cell("c", ck)).WithLiveness(replica.Inserted(1)))
		}
		s = append(s, allNodes(pk(k, rows...).WithStatic(replica.Live("s2", "42", 1))),
			toNode(i%3+1, pk(k).WithStatic(replica.Live("s1", "17", 1))))
	}
	for _, v := range dtestVariants() {
		if v.pageSize != 0 {
			continue
		}
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			for _, size := range []int{2, 3, 4, 5, 15, 16, 17, 100} {
				for _, cols := range staticSelectors {
					assert.Equal(t, want8502(keys, cks, cols), e.pagedMany(t, v, keys, replica.Query{}, size, cols...),
						"%v IN, pages of %d, %v", v, size, cols)
					want := want8502([]string{"99"}, wide, cols)
					assert.Equal(t, want, e.pagedOne(t, v, "99", replica.Query{}, size, cols...),
						"%v a = 99, pages of %d, %v", v, size, cols)
					slices.Reverse(want)
					assert.Equal(t, want, e.pagedOne(t, v, "99", replica.Query{Reversed: true}, size, cols...),
						"%v a = 99 DESC, pages of %d, %v", v, size, cols)
				}
			}
		})
	}
}

// paging_test.py TestPagingData.test_static_columns_with_empty_non_static_-
// columns_paging (CASSANDRA-10381): partitions 0..4 hold only a static
// value, s = the key, written at QUORUM; SELECT * WHERE a IN (0..4) in
// pages of 2 shows each partition once with its s.
func TestDtestStaticOnlyPartitionsPaging(t *testing.T) {
	keys := []string{"0", "1", "2", "3", "4"}
	var s dtestScenario
	for i, k := range keys {
		s = append(s, toNode(i%3+1, pk(k).WithStatic(replica.Live("s", k, 1))))
	}
	for _, v := range dtestVariants() {
		if v.pageSize != 0 {
			continue
		}
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			for _, size := range []int{1, 2, 3} {
				assert.Equal(t, []string{"0/ 0", "1/ 1", "2/ 2", "3/ 3", "4/ 4"}, e.pagedMany(t, v, keys, replica.Query{}, size, "s"),
					"%v pages of %d", v, size)
			}
		})
	}
}

// paging_test.py TestPagingData.test_paging_for_range_name_queries
// (CASSANDRA-11669): PRIMARY KEY (a, b, c), a, b, c in 0..3 and d = a + b;
// b = 1 AND c = 1, b = 1 AND c IN (1, 2) and b IN (1, 2) AND c IN (1, 2),
// each over a IN (0..3) (the dtest scans the table), in every page size.
// The clustering (b, c) is "b:c". Each node lacks the rows of one
// partition, which reached a quorum only.
func TestDtestPagingForRangeNameQueries(t *testing.T) {
	keys := []string{"0", "1", "2", "3"}
	var s dtestScenario
	for i, a := range keys {
		var rows []replica.Row
		for b := range 4 {
			for c := range 4 {
				d := fmt.Sprint(i + b)
				rows = append(rows, replica.NewRow(fmt.Sprintf("%d:%d", b, c), replica.Live("d", d, 1)).WithLiveness(replica.Inserted(1)))
			}
		}
		s = append(s, toNode(i%3+1, pk(a, rows...)))
	}
	names := func(cks ...string) replica.Query {
		var sl []replica.Slice
		for _, ck := range cks {
			sl = append(sl, replica.Slice{Start: replica.StartAt(ck), End: replica.EndAt(ck)})
		}
		return replica.Query{Slices: sl}
	}
	want := func(cks ...string) []string {
		var out []string
		for i, a := range keys {
			for _, ck := range cks {
				b := int(ck[0] - '0')
				out = append(out, fmt.Sprintf("%s/%s %d", a, ck, i+b))
			}
		}
		return out
	}
	for _, v := range dtestVariants() {
		if v.pageSize != 0 {
			continue
		}
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			for _, size := range []int{2, 3, 4, 5, 7, 10} {
				for _, cks := range [][]string{{"1:1"}, {"1:1", "1:2"}, {"1:1", "1:2", "2:1", "2:2"}} {
					assert.Equal(t, want(cks...), e.pagedMany(t, v, keys, names(cks...), size, "d"),
						"%v pages of %d, %s", v, size, strings.Join(cks, ","))
				}
			}
		})
	}
}
