package coordinator_test

import (
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A partition of static data alone shows as one row, and counts as one,
// only to a query with no clustering restriction: nil slices or the one
// slice Bottom to Top (Cassandra's Slices.ALL). A slice from StartAt("")
// is CQL's ck >= "" on a column whose empty value is a real one, a
// restriction like any other bound (ClusteringIndexSliceFilter.
// selectsAllPartition: one slice, no lower bound, no upper bound). Keys 0
// and 1 hold static data only, 2 two live rows, 3 a deleted row, and 4
// rows that A alone holds live, so that short-read protection asks A for
// more before the merge finds none; read by IN, paged or not, and one key
// at a time, forward and reversed.
func TestStaticOnlyPartitionsUnderAnExplicitSlice(t *testing.T) {
	static := func(k string, rows ...replica.Row) replica.Partition {
		return pk(k, rows...).WithStatic(replica.Live("s", "s"+k, 1))
	}
	live := func(ck string) replica.Row { return replica.NewRow(ck, replica.Live("v", ck, 1)) }
	gone := func(ck string) replica.Row { return replica.NewRow(ck).WithDeletion(replica.DeletedAt(2, now)) }
	s := dtestScenario{
		allNodes(static("0")), allNodes(static("1")), allNodes(static("2", live("a"), live("b"))),
		allNodes(static("3", gone("a"))),
		allNodes(static("4")), toNode(1, pk("4", live("a"), live("b"))),
		toNode(2, pk("4", gone("a"), gone("b"))), toNode(3, pk("4", gone("a"), gone("b"))),
	}
	keys := []string{"0", "1", "2", "3", "4"}
	onlyStatic := []string{"0/ s0 null", "1/ s1 null", "3/ s3 null", "4/ s4 null"}
	unrestricted := []replica.Query{{}, {Slices: []replica.Slice{replica.AllRows()}}}
	restricted := []replica.Query{
		{Slices: []replica.Slice{{Start: replica.StartAt(""), End: replica.Top()}}},
		{Slices: []replica.Slice{{Start: replica.StartAt("a"), End: replica.Top()}}},
	}
	type tc struct {
		q    replica.Query
		want []string
	}
	var cases []tc
	for _, reversed := range []bool{false, true} {
		first := "2/a s2 a"
		if reversed {
			first = "2/b s2 b"
		}
		for _, limit := range []int{0, 1, 2} {
			rows := []string{"2/a s2 a", "2/b s2 b"}
			if limit == 1 {
				rows = []string{first}
			}
			for _, q := range unrestricted {
				q.Reversed, q.Limit = reversed, limit
				want := slices.Concat(onlyStatic, rows)
				slices.Sort(want)
				cases = append(cases, tc{q, want})
			}
			for _, q := range restricted {
				q.Reversed, q.Limit = reversed, limit
				cases = append(cases, tc{q, rows})
			}
		}
	}
	for _, v := range dtestVariants() {
		if v.pageSize != 0 {
			continue
		}
		synctest.Test(t, func(t *testing.T) {
			e := dtestEnv(t, s, v, coordinator.TableOptions{})
			for _, c := range cases {
				for _, size := range []int{0, 1, 2, 3, 100} {
					got := e.pagedMany(t, v, keys, c.q, size, "s", "v")
					slices.Sort(got)
					assert.Equal(t, c.want, got, "%v IN, %s, pages of %d", v, describeQuery(c.q), size)
				}
				var got []string
				for _, k := range keys {
					got = append(got, e.pagedOne(t, v, k, c.q, 1, "s", "v")...)
				}
				slices.Sort(got)
				assert.Equal(t, c.want, got, "%v one key at a time, %s, pages of 1", v, describeQuery(c.q))
			}
		})
	}
}

func describeQuery(q replica.Query) string {
	return fmt.Sprintf("slices %v reversed %v limit %d", q.Slices, q.Reversed, q.Limit)
}
