package coordinator_test

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// jsonRoundTrip writes v as JSON and reads it back into a new T.
func jsonRoundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var back T
	require.NoError(t, json.Unmarshal(b, &back), "%s", b)
	return back
}

func visibleOrder(r coordinator.Result) []string {
	var cks []string
	for row := range r.VisibleRows() {
		cks = append(cks, row.Clustering)
	}
	return cks
}

// A result written as JSON and read back keeps the query its read ran,
// on which VisibleRows' order depends: a reversed read's rows come back
// descending, from Read and from ReadMany alike. (Found by a review: the
// query was not written, and decoded results yielded ascending rows.)
func TestResultJSONKeepsVisibleRowsOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a")
		q := replica.Query{Reversed: true}
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: "a", Level: consistency.Quorum, Query: q, NowInSec: now})
		require.NoError(t, err)
		require.Equal(t, []string{"3", "2", "1"}, visibleOrder(res))
		assert.Equal(t, []string{"3", "2", "1"}, visibleOrder(jsonRoundTrip(t, res)))

		many, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{"a"}, Level: consistency.Quorum, Query: q, NowInSec: now})
		require.NoError(t, err)
		require.Equal(t, []string{"3", "2", "1"}, visibleOrder(many[0].Result))
		assert.Equal(t, []string{"3", "2", "1"}, visibleOrder(jsonRoundTrip(t, many)[0].Result))
	})
}

// A partition holding only static data shows as a row only to a query
// with no clustering restriction, after a JSON round trip too.
func TestResultJSONKeepsStaticOnlyRule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition("s").WithStatic(replica.Live("st", "x", 1))))
		for _, tc := range []struct {
			q    replica.Query
			rows int
		}{
			{replica.Query{}, 1},
			{replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("a"), End: replica.Top()}}}, 0},
			{replica.Query{Slices: []replica.Slice{}}, 0},
		} {
			res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: "s", Level: consistency.Quorum, Query: tc.q, NowInSec: now})
			require.NoError(t, err)
			require.Len(t, res.Visible().Rows, tc.rows, "%+v", tc.q)
			assert.Len(t, jsonRoundTrip(t, res).Visible().Rows, tc.rows, "%+v after JSON", tc.q)
		}
	})
}

// Reading JSON into a result that holds the coordinator's memory writes
// none of it: the decoded rows are the decoder's own, so releasing a copy
// of the old result, which hands that memory to later reads, leaves them
// as they were read.
func TestResultJSONReadsIntoNewMemory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		seedRows(t, e, 3, "a")
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: "a", Level: consistency.Quorum, NowInSec: now})
		require.NoError(t, err)
		b, err := json.Marshal(res)
		require.NoError(t, err)
		old := res
		require.NoError(t, json.Unmarshal(b, &res))
		want := res.Partition.Clone()
		for i := range res.Partition.Rows {
			res.Partition.Rows[i].Clustering = "decoded"
		}
		assert.NotEqual(t, "decoded", old.Partition.Rows[0].Clustering, "the decoder wrote into the old result's rows")
		res.Partition = want
		old.Release()
		res.Release()
		assert.True(t, res.Partition.IsEmpty())
	})
}
