package coordinator_test

import (
	"strconv"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// staticPartition is PER_TEST_CF_CQL_WITH_STATIC after QueryPagerTest's
// five INSERT INTO (k, c, st, v1, v2) VALUES ('k0', i, i, i, i), each
// later than the one before: rows 0 … 4, and st = 4.
func staticPartition() replica.Partition {
	var rows []replica.Row
	for i := range 5 {
		v, ts := strconv.Itoa(i), int64(i+1)
		rows = append(rows, replica.NewRow(v, replica.Live("v1", v, ts), replica.Live("v2", v, ts)).
			WithLiveness(replica.Inserted(ts)))
	}
	return replica.NewPartition("k0", rows...).WithStatic(replica.Live("st", "4", 5))
}

// pagingReversedQueriesWithStaticColumnsTest (CASSANDRA-13222), through
// QueryPagerTest.queryAndVerifyCells: the partition read reversed in pages
// of one row shows st = 4 beside each row, 4 down to 0, with its v1 and v2;
// the page after the fifth returns no partition at all. Checked forward
// too, by PageSize and by Query.Limit as the page size.
func TestCassandraPagerReversedWithStaticColumns(t *testing.T) {
	for _, reversed := range []bool{true, false} {
		for _, byLimit := range []bool{false, true} {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				require.NoError(t, e.cluster.Seed(tbl, staticPartition()))
				req := coordinator.Request{Table: tbl, Key: "k0", Level: consistency.One,
					Query: replica.Query{Reversed: reversed}, PageSize: 1, NowInSec: now}
				if byLimit {
					req.Query.Limit, req.PageSize = 1, 0
				}
				st := []replica.Cell{replica.Live("st", "4", 5)}
				for i := range 5 {
					res, err := e.c.Read(t.Context(), req)
					require.NoError(t, err)
					ck := strconv.Itoa(i)
					if reversed {
						ck = strconv.Itoa(4 - i)
					}
					v := res.Visible()
					assert.Equal(t, st, v.Static, "page %d", i)
					if assert.Len(t, v.Rows, 1, "page %d", i) {
						assert.Equal(t, ck, v.Rows[0].Clustering)
						assert.Equal(t, []string{"v1=" + ck, "v2=" + ck}, cellValues(v.Rows[0].Cells))
					}
					require.NotNil(t, res.PagingState, "page %d is full", i)
					req.PagingState = recreated(t, res.PagingState)
				}
				res, err := e.c.Read(t.Context(), req)
				require.NoError(t, err)
				assert.Empty(t, res.Visible().Rows, "reversed %v, by limit %v: the sixth page", reversed, byLimit)
				assert.Nil(t, res.PagingState)
			})
		}
	}
}

// cellValues lists cells as column=value.
func cellValues(cells []replica.Cell) []string {
	var out []string
	for _, c := range cells {
		out = append(out, c.Column+"="+string(c.Value))
	}
	return out
}
