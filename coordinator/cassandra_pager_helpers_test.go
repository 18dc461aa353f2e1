package coordinator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Helpers for the ports of Cassandra's pager tests
// (test/unit/org/apache/cassandra/service/pager).

// pagerEnv is QueryPagerTest.addData's table: keys k0 … k9, each of rows
// c0 … c9 holding val = "", every write at its own later timestamp, on
// every replica, behind a coordinator that never hedges.
func pagerEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
	ts := int64(1)
	for i := range 10 {
		var rows []replica.Row
		for j := range 10 {
			rows = append(rows, replica.NewRow(fmt.Sprint("c", j), replica.Live("val", "", ts)))
			ts++
		}
		require.NoError(t, e.cluster.Seed(tbl, replica.NewPartition(fmt.Sprint("k", i), rows...)))
	}
	return e
}

// pagerSlice is Util.cmd(...).fromIncl(start).toExcl(end).
func pagerSlice(start, end string) []replica.Slice {
	return []replica.Slice{{Start: replica.StartAt(start), End: replica.EndBefore(end)}}
}

// pagerNames is Util.cmd(...).includeRow(names...): one slice a row.
func pagerNames(names ...string) []replica.Slice {
	var sl []replica.Slice
	for _, n := range names {
		sl = append(sl, replica.Slice{Start: replica.StartAt(n), End: replica.EndAt(n)})
	}
	return sl
}

// recreated is QueryPagerTest.maybeRecreate: the state decoded and encoded
// again, as a client that stored it would hand it back.
func recreated(t *testing.T, state []byte) []byte {
	t.Helper()
	if state == nil {
		return nil
	}
	var s replica.PagingState
	require.NoError(t, s.UnmarshalBinary(state))
	again, err := s.MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, state, again)
	return again
}

// onePage reads req and returns the clustering keys of the rows it shows
// and the request of the next page, or false once the read is exhausted.
func onePage(t *testing.T, c *coordinator.Coordinator, req coordinator.Request) ([]string, coordinator.Request, bool) {
	t.Helper()
	res, err := c.Read(context.Background(), req)
	require.NoError(t, err)
	req.PagingState = recreated(t, res.PagingState)
	return clusterings(res), req, res.PagingState != nil
}

// manyPage reads one page of an IN query and returns its rows as
// key/clustering, up to and including the first key the page cut (an
// API change may end the results there: nothing after it is looked at),
// and the next page's request.
func manyPage(t *testing.T, c *coordinator.Coordinator, req coordinator.ManyRequest) ([]string, coordinator.ManyRequest, bool) {
	t.Helper()
	res, err := c.ReadMany(context.Background(), req)
	require.NoError(t, err)
	var rows []string
	for _, r := range res {
		require.NoError(t, r.Err, r.Key)
		for _, row := range r.Result.Visible().Rows {
			rows = append(rows, r.Key+"/"+row.Clustering)
		}
		if r.Cut {
			break
		}
	}
	next, more := req.Next(res) // all of them: Next lists the keys left
	if more {
		next.PagingState = recreated(t, next.PagingState)
	}
	return rows, next, more
}

// inQuery is an IN query of keys at ONE, as the pager tests read.
func inQuery(keys []string, slices []replica.Slice, limit, perPartition, pageSize int) coordinator.ManyRequest {
	return coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One,
		Query: replica.Query{Slices: slices, Limit: perPartition}, Limit: limit, PageSize: pageSize, NowInSec: now}
}

// ckRows turns clusterings of key into key/clustering.
func ckRows(key string, cks ...string) []string {
	var out []string
	for _, ck := range cks {
		out = append(out, key+"/"+ck)
	}
	return out
}
