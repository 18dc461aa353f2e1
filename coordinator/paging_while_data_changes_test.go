package coordinator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// Paging while the data changes between pages and time moves on, through
// Read and through ReadMany with Next.
// Cassandra's guarantees: a key's rows come back in order, never twice;
// none past the limits; and every row live at every page's time that no
// write touched while paging comes back, unless a limit ended the read
// first.
func TestPagingWhileDataChanges(t *testing.T) {
	cl, c := propertyCoordinator(t, policy(t, "NEVER"))
	g := newPageGen(false)
	g.purgeable = false
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		n++
		many := rapid.Bool().Draw(t, "many")
		q := g.query(t)
		cols := g.columns(t)
		limit := rapid.IntRange(0, 8).Draw(t, "limit")
		sized := rapid.Bool().Draw(t, "sized")
		var keys []string
		for i := range rapid.IntRange(1, 3).Draw(t, "keys") {
			keys = append(keys, fmt.Sprint("mut", n, "/", i))
			if !many {
				break
			}
		}
		for _, k := range keys {
			vs := g.versions(t, k, 3)
			for j, r := range cl.Replicas() {
				require.NoError(t, r.Seed(tbl, vs[j]))
			}
		}
		// touched[k] holds the clustering keys a write between pages
		// touched; all means every row of k was (a partition deletion, or
		// a range deletion we do not track precisely).
		touched := map[string]map[string]bool{}
		all := map[string]bool{}
		// live[k][ck] counts the pages at whose time the row was visible.
		live := map[string]map[string]int{}
		got := map[string][]string{}
		total := 0
		at := int64(now)
		pages := 0
		visibleNow := func() {
			pages++
			for _, k := range keys {
				var vs []replica.Partition
				for _, r := range cl.Replicas() {
					p, ok := r.Partition(tbl, k)
					if !ok {
						p = replica.NewPartition(k)
					}
					vs = append(vs, p.Purge(at, at-864000))
				}
				v := merge(t, vs...).Restrict(replica.Query{Slices: q.Slices}).Project(cols).Visible(at)
				if live[k] == nil {
					live[k] = map[string]int{}
				}
				for _, r := range v.Rows {
					if !r.Static {
						live[k][r.Clustering]++
					}
				}
			}
		}
		mutate := func(w int) {
			if rapid.IntRange(0, 2).Draw(t, "mutate") == 0 {
				return
			}
			k := rapid.SampledFrom(keys).Draw(t, "mkey")
			p := g.write(t, k, 100+w)
			if touched[k] == nil {
				touched[k] = map[string]bool{}
			}
			for _, r := range p.Rows {
				touched[k][r.Clustering] = true
			}
			if len(p.RangeTombstones) > 0 || !p.Deletion.IsLive() {
				all[k] = true
			}
			to := rapid.IntRange(1, 7).Draw(t, "mto")
			for i, r := range cl.Replicas() {
				if to&(1<<i) == 0 {
					continue
				}
				old, ok := r.Partition(tbl, k)
				if !ok {
					old = replica.NewPartition(k)
				}
				require.NoError(t, r.Seed(tbl, merge(t, old, p)))
			}
			at += int64(rapid.IntRange(0, 2).Draw(t, "tick"))
		}
		if many {
			req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.All, Query: q, Columns: cols,
				Limit: limit, NowInSec: at}
			req.Query.Limit = rapid.IntRange(0, 4).Draw(t, "pp")
			q = req.Query
			for page, more := 0, true; more; page++ {
				require.Less(t, page, 100)
				if sized {
					req.PageSize = rapid.IntRange(1, 4).Draw(t, "size")
				}
				req.NowInSec = at
				visibleNow()
				res, err := c.ReadMany(context.Background(), req)
				require.NoError(t, err)
				for _, r := range res {
					require.NoError(t, r.Err)
					for _, row := range inQueryOrder(r.Result, req.Query) {
						total++
						if !row.Static {
							got[r.Key] = append(got[r.Key], row.Clustering)
						}
					}
				}
				req, more = req.Next(res)
				if more {
					mutate(page)
				}
			}
		} else {
			req := coordinator.Request{Table: tbl, Key: keys[0], Level: consistency.All, Query: q, Columns: cols}
			req.Query.Limit = limit
			q = req.Query
			for page := 0; ; page++ {
				require.Less(t, page, 100)
				if sized {
					req.PageSize = rapid.IntRange(1, 4).Draw(t, "size")
				} else if limit == 0 {
					req.Query.Limit = 0
				}
				req.NowInSec = at
				visibleNow()
				res, err := c.Read(context.Background(), req)
				require.NoError(t, err)
				for _, row := range inQueryOrder(res, req.Query) {
					total++
					if !row.Static {
						got[req.Key] = append(got[req.Key], row.Clustering)
					}
				}
				if res.PagingState == nil {
					break
				}
				req.PagingState = res.PagingState
				mutate(page)
			}
		}
		order := func(a, b string) int {
			if q.Reversed {
				return -replica.StartAt(a).Compare(replica.StartAt(b))
			}
			return replica.StartAt(a).Compare(replica.StartAt(b))
		}
		limitHit := sized && limit > 0 && total >= limit
		if sized && limit > 0 {
			require.LessOrEqual(t, total, limit, "over the LIMIT")
		}
		for _, k := range keys {
			rows := got[k]
			for i := 1; i < len(rows); i++ {
				require.Less(t, order(rows[i-1], rows[i]), 0, "key %s rows out of order or repeated: %q", k, rows)
			}
			pp := q.Limit
			if many && pp > 0 {
				require.LessOrEqual(t, len(rows), pp, "key %s over its per-partition limit", k)
			}
			if !many {
				pp = 0
			}
			stopped := limitHit || (pp > 0 && len(rows) >= pp)
			for ck, seen := range live[k] {
				if seen != pages || all[k] || touched[k][ck] {
					continue
				}
				if stopped && (len(rows) == 0 || order(ck, rows[len(rows)-1]) > 0) {
					continue
				}
				require.Contains(t, rows, ck, "key %s: stable row %q lost; got %q", k, ck, rows)
			}
		}
	})
}
