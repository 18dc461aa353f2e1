package coordinator_test

import (
	"slices"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// Ports of Cassandra's MultiPartitionPagerTest, whose vectors are
// AbstractPartitionsPagerTest's (the newer PartitionsPagerTests adds the
// page size equal to a partition's rows), over an IN query of
// tokenOrderedKeys 1 to 4 (here k1 … k4, in the order listed, as
// ManyRequest reads them) of QueryPagerTest.addData: c1 to c8 exclusive,
// or the names c1 … c7, so seven rows a key.
// (test/unit/org/apache/cassandra/service/pager/MultiPartitionPagerTest.java,
// AbstractPartitionsPagerTest.java, PartitionsPagerTests.java)

var (
	multiKeys    = []string{"k1", "k2", "k3", "k4"}
	multiQueries = map[string][]replica.Slice{
		"slice": pagerSlice("c1", "c8"),
		"names": pagerNames("c1", "c2", "c3", "c4", "c5", "c6", "c7"),
	}
)

// cs lists rows c<from> … c<to> of key, as key/clustering.
func cs(key string, from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, key+"/c"+string(rune('0'+i)))
	}
	return out
}

// cat joins the rows of consecutive keys of one page.
func cat(parts ...[]string) []string { return slices.Concat(parts...) }

// partitionsQueryWithPagingInRowsTest, in rows: without limits in pages of
// 5, 4, 6, 5, 5, 5; LIMIT 16 PER PARTITION LIMIT 5 in pages of 3, 2, 7,
// 100; and (PartitionsPagerTests) pages of 7, 14, 7, then a last page of
// nothing after the one that ended exactly with k4.
func TestCassandraPagerMultiPagingInRows(t *testing.T) {
	for name, sl := range multiQueries {
		synctest.Test(t, func(t *testing.T) {
			e := pagerEnv(t)
			req := inQuery(multiKeys, sl, 0, 0, 0)
			assert.Equal(t, [][]string{
				cs("k1", 1, 5),
				cat(cs("k1", 6, 7), cs("k2", 1, 2)),
				cat(cs("k2", 3, 7), cs("k3", 1, 1)),
				cs("k3", 2, 6),
				cat(cs("k3", 7, 7), cs("k4", 1, 4)),
				cs("k4", 5, 7),
			}, manyPages(t, e.c, req, 5, 4, 6, 5, 5, 5), name)

			req = inQuery(multiKeys, sl, 16, 5, 0)
			assert.Equal(t, [][]string{
				cs("k1", 1, 3),
				cs("k1", 4, 5),
				cat(cs("k2", 1, 5), cs("k3", 1, 2)),
				cat(cs("k3", 3, 5), cs("k4", 1, 1)),
			}, manyPages(t, e.c, req, 3, 2, 7, 100), "%s LIMIT 16 PER PARTITION LIMIT 5", name)

			req = inQuery(multiKeys, sl, 0, 0, 0)
			assert.Equal(t, [][]string{
				cs("k1", 1, 7),
				cat(cs("k2", 1, 7), cs("k3", 1, 7)),
				cs("k4", 1, 7),
				nil,
			}, manyPages(t, e.c, req, 7, 14, 7, 1), "%s in pages of a partition's rows", name)
		})
	}
}

// partitionsQueryWithLimitsTest: unpaged (PageSize.NONE) under LIMIT and
// PER PARTITION LIMIT, one page that ends the read.
func TestCassandraPagerMultiWithLimits(t *testing.T) {
	cases := []struct {
		limit, perPartition int
		want                []string
	}{
		{3, 0, cs("k1", 1, 3)},
		{7, 0, cs("k1", 1, 7)},
		{11, 0, cat(cs("k1", 1, 7), cs("k2", 1, 4))},
		{0, 3, cat(cs("k1", 1, 3), cs("k2", 1, 3), cs("k3", 1, 3), cs("k4", 1, 3))},
		{0, 7, cat(cs("k1", 1, 7), cs("k2", 1, 7), cs("k3", 1, 7), cs("k4", 1, 7))},
		{0, 11, cat(cs("k1", 1, 7), cs("k2", 1, 7), cs("k3", 1, 7), cs("k4", 1, 7))},
		{3, 4, cs("k1", 1, 3)},
		{4, 3, cat(cs("k1", 1, 3), cs("k2", 1, 1))},
	}
	for name, sl := range multiQueries {
		synctest.Test(t, func(t *testing.T) {
			e := pagerEnv(t)
			for _, c := range cases {
				req := inQuery(multiKeys, sl, c.limit, c.perPartition, unpaged)
				assert.Equal(t, [][]string{c.want}, manyPages(t, e.c, req),
					"%s LIMIT %d PER PARTITION LIMIT %d", name, c.limit, c.perPartition)
			}
		})
	}
}

// QueryPagerTest.checkRows, in rows: for every page size from 1 to 30, the
// IN query's 28 rows come in pages of exactly the page size but the last,
// each row once and in order, and the read ends (after an empty page only
// when the rows fill the last page exactly).
func TestCassandraPagerMultiCheckRows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := pagerEnv(t)
		var all []string
		for _, k := range multiKeys {
			all = append(all, cs(k, 1, 7)...)
		}
		for size := 1; size <= 30; size++ {
			pages := manyPages(t, e.c, inQuery(multiKeys, multiQueries["slice"], 0, 0, size))
			var got []string
			for i, p := range pages {
				if want := min(size, len(all)-len(got)); want > 0 || i < len(pages)-1 {
					assert.Len(t, p, want, "page %d of %d rows", i, size)
				}
				got = append(got, p...)
			}
			assert.Equal(t, all, got, "pages of %d", size)
		}
	})
}
