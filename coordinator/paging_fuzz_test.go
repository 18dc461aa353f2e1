package coordinator_test

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// fuzzKeys are the clustering keys of the partitions the paging fuzz reads;
// "b\x00" is the key right after "b".
var fuzzKeys = []string{"", "a", "b", "b\x00", "c", "d", "e", "f"}

// fuzzSlices are the row selections the paging fuzz draws from.
var fuzzSlices = [][]replica.Slice{
	nil,
	{},
	{{Start: replica.StartAfter("a"), End: replica.EndAt("d")}},
	{{Start: replica.Bottom(), End: replica.EndBefore("b")}, {Start: replica.StartAt("c"), End: replica.EndAt("c")},
		{Start: replica.StartAfter("d"), End: replica.Top()}},
}

// fuzzPagingCoordinator is a coordinator over fuzzCluster.
func fuzzPagingCoordinator(f *testing.F) *coordinator.Coordinator {
	cl := fuzzCluster(f)
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl})
	require.NoError(f, err)
	f.Cleanup(func() { c.Close() })
	return c
}

// fuzzCluster is three instant replicas that hold, under keys k0 to k2,
// rows at fuzzKeys of which every third is deleted, so that a limit counts
// live rows, not rows.
func fuzzCluster(tb testing.TB) *replicatest.Cluster {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
		// Every key is on all three nodes: more tokens would only make each
		// fuzz iteration, which builds its own cluster, slower.
		TokensPerNode: 1,
	})
	require.NoError(tb, err)
	for _, k := range []string{"k0", "k1", "k2"} {
		require.NoError(tb, cl.Seed(tbl, fuzzPartition(k)))
	}
	return cl
}

// fuzzPartition is the partition of key k that fuzzCluster seeds.
func fuzzPartition(k string) replica.Partition {
	p := replica.NewPartition(k)
	for i, ck := range fuzzKeys {
		r := replica.NewRow(ck, replica.Live("a", "v", 10), replica.Live("b", "w", 10))
		if i%3 == 2 {
			r.Deletion = replica.DeletedAt(20, now-10)
		}
		p.Rows = append(p.Rows, r)
	}
	return p
}

// respondedView is what a client sees of a read of stored with q and
// columns, in a page of pageSize (0 for unpaged) at now: the view of what
// the replica package answers, an oracle independent of the coordinator.
func respondedView(t *testing.T, stored replica.Partition, q replica.Query, columns []string, pageSize int) replica.View {
	if pageSize > 0 && (q.Limit == 0 || pageSize < q.Limit) {
		q.Limit = pageSize
	}
	cmd := replica.Command{Table: tbl, Key: stored.Key, Query: q, Columns: columns, NowInSec: now}
	resp, err := cmd.Respond(stored)
	require.NoError(t, err)
	return resp.Partition.Visible(now)
}

// fuzzQuery draws a query, its column selection and a page size from shape.
func fuzzQuery(shape uint16) (replica.Query, []string, int) {
	q := replica.Query{Slices: fuzzSlices[shape%4], Reversed: shape&4 != 0, Limit: int(shape>>3) % 4}
	var columns []string
	switch {
	case shape&32 != 0 && shape&256 != 0:
		columns = []string{"s", "b"} // unsorted, the static column among them
	case shape&32 != 0:
		columns = []string{"b"}
	}
	return q, columns, int(shape>>6) % 4
}

// fed is a paging state fed back: after is set when it is a forgery that
// resumes after the row last, foreign when it is one made for another
// query, which must be refused.
type fed struct {
	state          []byte
	last           string
	after, foreign bool
}

// fedBack turns the state a first page returned into the one fed back, by
// how: data as the state; data XORed over it; a state forged for the query
// (valid checksum and fingerprint) after the row data, claiming rows
// remaining; or one forged for the query with another limit.
func fedBack(t *testing.T, req coordinator.Request, state []byte, how uint8, data []byte) fed {
	switch how % 4 {
	case 0:
		return fed{state: data}
	case 1:
		out := append([]byte(nil), state...)
		for i, b := range data {
			if i < len(out) {
				out[i] ^= b
			}
		}
		return fed{state: out}
	case 2:
		s := replica.NewPagingState(req.Table, req.Key, req.Query, req.Columns, string(data))
		b, err := s.WithRemaining(int(how>>2) * 1e6).MarshalBinary()
		require.NoError(t, err)
		return fed{state: b, last: string(data), after: true}
	}
	other := req.Query
	other.Limit++
	b, err := replica.NewPagingState(req.Table, req.Key, other, req.Columns, string(data)).MarshalBinary()
	require.NoError(t, err)
	return fed{state: b, foreign: true}
}

// FuzzPagingStateFedBack feeds a Read the state of its first page mutated,
// or forged, and pages on from it: each read either fails with
// ErrInvalidRequest or returns only rows of the query, after the forged
// row, in the query's order, each page within its page size, and all the
// pages within the query's limit when a page size makes it a total. Fed
// back unchanged, the state makes the first page and the rest the rows of
// the query read unpaged (with no limit when a page size does not make it
// a total).
func FuzzPagingStateFedBack(f *testing.F) {
	for _, shape := range []uint16{0, 8, 8 | 4, 16 | 64, 24 | 128 | 2, 8 | 32 | 3, 8 | 32 | 64 | 256 | 2} {
		for how := range uint8(4) {
			f.Add(shape, how, []byte("b"))
		}
		f.Add(shape, uint8(1), []byte{}) // the state unchanged
	}
	f.Add(uint16(8|64), uint8(6), []byte("c\x00"))
	f.Fuzz(func(t *testing.T, shape uint16, how uint8, data []byte) {
		readsAtOnce(t, overFuzzCluster, func(t *testing.T, c *coordinator.Coordinator) {
			q, columns, pageSize := fuzzQuery(shape)
			req := coordinator.Request{Table: tbl, Key: "k1", Level: consistency.All, Query: q, Columns: columns,
				PageSize: pageSize, NowInSec: now}
			first, err := c.Read(context.Background(), req)
			require.NoError(t, err)
			from := fedBack(t, req, first.PagingState, how, data)
			rest := pageOnFrom(t, c, req, from)
			if first.PagingState != nil && bytes.Equal(from.state, first.PagingState) {
				got := append(inQueryOrder(first, q), rest...)
				all := q // without a page size the limit is a page's, not a total
				if pageSize == 0 {
					all.Limit = 0
				}
				want := respondedView(t, fuzzPartition(req.Key), all, columns, 0).Rows
				if q.Reversed {
					slices.Reverse(want)
				}
				require.True(t, slices.EqualFunc(want, got, replica.ViewRow.Equal), "pages %v, unpaged %v", got, want)
			}
		})
	})
}

// pageOnFrom reads req and the pages after it, checking what
// FuzzPagingStateFedBack promises, and returns the rows they show.
func pageOnFrom(t *testing.T, c *coordinator.Coordinator, req coordinator.Request, from fed) []replica.ViewRow {
	q, total, last, after := req.Query, 0, from.last, from.after
	req.PagingState = from.state
	var shown []replica.ViewRow
	for page := 0; ; page++ {
		require.Less(t, page, 2*len(fuzzKeys), "paging does not end")
		res, err := c.Read(context.Background(), req)
		if err != nil {
			require.ErrorIs(t, err, coordinator.ErrInvalidRequest)
			require.Zero(t, page, "a state the coordinator made was refused")
			return nil
		}
		require.False(t, from.foreign && page == 0, "a state of another query was accepted")
		require.NoError(t, res.Partition.Validate())
		for _, r := range res.Partition.Rows {
			require.True(t, q.Contains(r.Clustering), "row %q outside the query %+v", r.Clustering, q)
			require.True(t, !after || q.After(last).Contains(r.Clustering), "row %q not after %q", r.Clustering, last)
		}
		rows := res.Partition.LiveRows(q, res.NowInSec)
		require.True(t, req.PageSize == 0 || rows <= req.PageSize, "%d rows in a page of %d", rows, req.PageSize)
		require.True(t, q.Limit == 0 || rows <= q.Limit, "%d rows in a page under limit %d", rows, q.Limit)
		if total += rows; req.PageSize > 0 && q.Limit > 0 {
			require.LessOrEqual(t, total, q.Limit, "rows over the pages past the limit")
		}
		shown = append(shown, inQueryOrder(res, q)...)
		if last, after = res.Partition.LastClustering(q); !after || res.PagingState == nil {
			return shown
		}
		req.PagingState = res.PagingState
	}
}

// FuzzManyPagingStateFedBack does for ReadMany what FuzzPagingStateFedBack
// does for Read: the state Next hands out, mutated or forged, either makes
// ReadMany fail with ErrInvalidRequest or reads only rows of the query,
// within the page size and the per-partition limit. Fed back unchanged, the
// state makes the pages, followed with Next to the end, show each key's
// rows under the query in key order, up to the limit when pages have a size.
func FuzzManyPagingStateFedBack(f *testing.F) {
	for _, shape := range []uint16{0, 8, 8 | 4, 16 | 64, 24 | 128 | 2, 8 | 32 | 3, 8 | 32 | 64 | 256 | 2} {
		for how := range uint8(4) {
			f.Add(shape, uint8(3), how, []byte("b"))
		}
		f.Add(shape, uint8(3), uint8(1), []byte{}) // the state unchanged
		f.Add(shape, uint8(0), uint8(1), []byte{})
	}
	f.Fuzz(func(t *testing.T, shape uint16, limit, how uint8, data []byte) {
		readsAtOnce(t, overFuzzCluster, func(t *testing.T, c *coordinator.Coordinator) {
			readManyFedBack(t, c, shape, limit, how, data)
		})
	})
}

// readManyFedBack is an iteration of FuzzManyPagingStateFedBack.
func readManyFedBack(t *testing.T, c *coordinator.Coordinator, shape uint16, limit, how uint8, data []byte) {
	q, columns, pageSize := fuzzQuery(shape)
	req := coordinator.ManyRequest{Table: tbl, Keys: []string{"k0", "k1", "k2"}, Level: consistency.All, Query: q,
		Columns: columns, Limit: int(limit % 8), PageSize: pageSize, NowInSec: now}
	res, err := c.ReadMany(context.Background(), req)
	require.NoError(t, err)
	next, ok := req.Next(res)
	if !ok {
		next = req
	}
	from := fedBack(t, coordinator.Request{Table: tbl, Key: next.Keys[0], Query: q, Columns: columns},
		next.PagingState, how, data)
	unchanged := ok && bytes.Equal(from.state, next.PagingState)
	next.PagingState = from.state
	shown := manyPageShows(res, q)
	for page := 0; ; page++ {
		require.Less(t, page, 4*len(fuzzKeys), "paging does not end")
		res, err = c.ReadMany(context.Background(), next)
		if err != nil {
			require.ErrorIs(t, err, coordinator.ErrInvalidRequest)
			require.Zero(t, page, "a state the coordinator made was refused")
			return
		}
		require.False(t, from.foreign && page == 0, "a state of another query was accepted")
		requireManyPage(t, next, res, from.last, from.after && page == 0)
		if shown = append(shown, manyPageShows(res, q)...); !unchanged {
			return
		}
		if next, ok = next.Next(res); !ok {
			break
		}
	}
	var want []replica.ViewRow
	for _, k := range req.Keys {
		rows := respondedView(t, fuzzPartition(k), q, columns, 0).Rows
		if q.Reversed {
			slices.Reverse(rows)
		}
		want = append(want, rows...)
	}
	if req.PageSize > 0 && req.Limit > 0 && len(want) > req.Limit {
		want = want[:req.Limit]
	}
	require.True(t, slices.EqualFunc(want, shown, replica.ViewRow.Equal), "pages %v, want %v", shown, want)
}

// manyPageShows are the rows a page of ReadMany shows, key by key, each key's
// in q's order.
func manyPageShows(res []coordinator.KeyResult, q replica.Query) []replica.ViewRow {
	var rows []replica.ViewRow
	for _, kr := range res {
		rows = append(rows, inQueryOrder(kr.Result, q)...)
	}
	return rows
}

// requireManyPage checks one page of ReadMany read by req from a state
// forged after last, if forged.
func requireManyPage(t *testing.T, req coordinator.ManyRequest, res []coordinator.KeyResult, last string, forged bool) {
	q, total := req.Query, 0
	for i, kr := range res {
		require.NoError(t, kr.Err, "key %q", kr.Key)
		for _, r := range kr.Result.Partition.Rows {
			require.True(t, q.Contains(r.Clustering), "key %q: row %q outside the query %+v", kr.Key, r.Clustering, q)
			require.True(t, i > 0 || !forged || q.After(last).Contains(r.Clustering), "row %q not after %q", r.Clustering, last)
		}
		rows := kr.Result.Partition.LiveRows(q, kr.Result.NowInSec)
		require.True(t, q.Limit == 0 || rows <= q.Limit, "key %q: %d rows, per-partition limit %d", kr.Key, rows, q.Limit)
		total += rows
	}
	if n := manyPageRows(req); n > 0 {
		require.LessOrEqual(t, total, n, "rows in the page")
	}
}

// manyPageRows is the most live rows a page of req returns across its
// keys, 0 for no bound.
func manyPageRows(req coordinator.ManyRequest) int {
	if req.PageSize == 0 || req.Limit == 0 {
		return max(req.PageSize, req.Limit)
	}
	return min(req.PageSize, req.Limit)
}
