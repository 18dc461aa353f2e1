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

// A map<int,text>'s keys are big-endian ints, and a blob key is any bytes:
// not UTF-8. A Result, KeyResult or event logged as JSON reads back with
// them unchanged; encoding/json made each byte that is not UTF-8 U+FFFD,
// so that m[128] and m[129] read back as two elements under one path, a
// partition that failed Validate. (Found by a review.)
func TestJSONKeepsKeysAndPathsThatAreNotUTF8(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		const k = "\xfe\x00\xff"
		ts := int64(now-10) * 1_000_000
		p := replica.NewPartition(k, replica.NewRow("\x80",
			replica.Live("m", "a", ts).WithPath("\x00\x00\x00\x80"), // m[128] = 'a'
			replica.Live("m", "b", ts).WithPath("\x00\x00\x00\x81"), // m[129] = 'b'
		))
		require.NoError(t, p.Validate())
		require.NoError(t, e.cluster.Seed(tbl, p))
		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.Quorum, NowInSec: now})
		require.NoError(t, err)
		require.Len(t, res.Visible().Rows[0].Column("m"), 2)
		back := jsonRoundTrip(t, res)
		assert.NoError(t, back.Partition.Validate(), "decoded partition")
		assert.True(t, res.Partition.Equal(back.Partition), "before %v\nafter  %v", res.Partition, back.Partition)
		assert.True(t, res.Visible().Equal(back.Visible()), "before %v\nafter  %v", res.Visible(), back.Visible())

		kr := jsonRoundTrip(t, coordinator.KeyResult{Key: k, Result: res})
		assert.Equal(t, k, kr.Key)
		assert.True(t, res.Partition.Equal(kr.Result.Partition))
		h := jsonRoundTrip(t, coordinator.HedgeEvent{Table: tbl, Key: k})
		assert.Equal(t, coordinator.HedgeEvent{Table: tbl, Key: k}, h)
		re := jsonRoundTrip(t, coordinator.RepairEvent{Table: tbl, Key: k, Mutation: p})
		assert.Equal(t, k, re.Key)
		assert.Equal(t, tbl, re.Table)
		assert.True(t, p.Equal(re.Mutation))
	})
}

// A paged read's next Request carried as JSON (a web API handing its
// client the next request) keeps a blob key and column names that are not
// UTF-8, and nil columns apart from none: the next page was refused, its
// paging state made for another partition. So does a ManyRequest.
// (Found by a review.)
func TestRequestJSONKeepsKeysAndColumnsThatAreNotUTF8(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		const k = "\xfe\x00\xff"
		ts := int64(now-10) * 1_000_000
		p := replica.NewPartition(k,
			replica.NewRow("a", replica.Live("v", "1", ts)),
			replica.NewRow("b", replica.Live("v", "2", ts)))
		require.NoError(t, e.cluster.Seed(tbl, p))
		req := coordinator.Request{Table: tbl, Key: k, Level: consistency.Quorum, PageSize: 1, NowInSec: now,
			Columns: []string{"v", "\x80"}}
		res, err := e.c.Read(context.Background(), req)
		require.NoError(t, err)
		require.NotEmpty(t, res.PagingState)
		req.PagingState = res.PagingState
		back := jsonRoundTrip(t, req)
		assert.Equal(t, req, back)
		next, err := e.c.Read(context.Background(), back)
		require.NoError(t, err, "the next page, of the request carried as JSON")
		assert.Equal(t, "b", next.Partition.Rows[0].Clustering)
		for _, columns := range [][]string{nil, {}} {
			r := coordinator.Request{Table: tbl, Key: k, Columns: columns}
			assert.Equal(t, r, jsonRoundTrip(t, r))
		}

		mr := coordinator.ManyRequest{Table: tbl, Keys: []string{k, "\x81"}, Level: consistency.Quorum,
			Columns: []string{"\xff"}, PageSize: 3}
		assert.Equal(t, mr, jsonRoundTrip(t, mr))
	})
}
