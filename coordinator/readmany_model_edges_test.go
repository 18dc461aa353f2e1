package coordinator_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// modelCase is one drawn IN query: the keys' rows (-1: static data only),
// the keys that cannot be located, the list, the limits, the concurrency
// and a page size for each page (none when sizes is nil).
type modelCase struct {
	rows       []int
	broken     []bool
	list       []string
	ppl, limit int
	conc       int
	sizes      []int
}

func drawModelCase(rt *rapid.T) modelCase {
	var mc modelCase
	var keys []string
	for i := range rapid.IntRange(1, 8).Draw(rt, "keys") {
		keys = append(keys, fmt.Sprint("k", i))
		mc.rows = append(mc.rows, rapid.IntRange(-1, 5).Draw(rt, "rows"))
		mc.broken = append(mc.broken, rapid.IntRange(0, 5).Draw(rt, "broken") == 0)
	}
	for range rapid.IntRange(len(keys), 2*len(keys)).Draw(rt, "list") {
		mc.list = append(mc.list, rapid.SampledFrom(keys).Draw(rt, "key"))
	}
	mc.ppl = rapid.IntRange(0, 4).Draw(rt, "ppl")
	mc.limit = rapid.IntRange(0, 9).Draw(rt, "limit")
	mc.conc = rapid.IntRange(0, 4).Draw(rt, "concurrency")
	if rapid.Bool().Draw(rt, "sized") {
		mc.sizes = rapid.SliceOfN(rapid.IntRange(1, 4), 80, 80).Draw(rt, "sizes")
	}
	return mc
}

// keyIndex returns i of the key k<i>.
func keyIndex(k string) int {
	var i int
	fmt.Sscanf(k, "k%d", &i)
	return i
}

// want is what the pages of mc return in all, as key/clustering.
func (mc modelCase) want() []string {
	var seen, want []string
	for _, k := range mc.list {
		if slices.Contains(seen, k) {
			continue
		}
		seen = append(seen, k)
		i := keyIndex(k)
		if mc.broken[i] {
			continue
		}
		var rows []string
		if mc.rows[i] < 0 {
			rows = append(rows, k+"/static")
		}
		for j := range mc.rows[i] {
			rows = append(rows, fmt.Sprintf("%s/%d", k, j+1))
		}
		if mc.ppl > 0 && len(rows) > mc.ppl {
			rows = rows[:mc.ppl]
		}
		want = append(want, rows...)
	}
	if mc.sizes != nil && mc.limit > 0 && len(want) > mc.limit {
		want = want[:mc.limit]
	}
	return want
}

// run pages through mc in a bubble and returns the rows the pages held,
// or what went wrong.
func (mc modelCase) run(t *testing.T) (got []string, problem string) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for i, n := range mc.rows {
			k := fmt.Sprint("k", i)
			switch {
			case n < 0:
				if err := e.cluster.Seed(tbl, replica.NewPartition(k).WithStatic(replica.Live("st", "x", 5))); err != nil {
					t.Fatal(err)
				}
			case n > 0:
				var rs []replica.Row
				for j := range n {
					rs = append(rs, ins(fmt.Sprint(j+1), 1))
				}
				if err := e.cluster.Seed(tbl, replica.NewPartition(k, rs...)); err != nil {
					t.Fatal(err)
				}
			}
		}
		locate := func(table, key string) ([]replica.Replica, consistency.Replication, error) {
			if mc.broken[keyIndex(key)] {
				return nil, consistency.Replication{}, fmt.Errorf("no ring for %q", key)
			}
			reps, rf, err := e.cluster.Locate(table, key)
			h := fnv.New32a()
			h.Write([]byte(key))
			late := make([]replica.Replica, len(reps))
			for i, r := range reps {
				late[i] = lateReplica{Replica: r, delay: time.Duration(h.Sum32()%7+1) * time.Millisecond}
			}
			return late, rf, err
		}
		c, err := coordinator.New(coordinator.Config{Locator: coordinator.LocatorFunc(locate), Liveness: e.cluster,
			DefaultTable: policy(t, "NEVER")})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		req := coordinator.ManyRequest{Table: tbl, Keys: slices.Clone(mc.list), Level: consistency.Quorum,
			Query: replica.Query{Limit: mc.ppl}, Limit: mc.limit, NowInSec: now, Concurrency: mc.conc}
		reported := map[string]bool{}
		for page, more := 0, true; more; page++ {
			if page >= 80 {
				problem = "paging does not end"
				return
			}
			size := mc.limit
			if mc.sizes != nil {
				req.PageSize = mc.sizes[page]
				size = req.PageSize
				if req.Limit > 0 {
					size = min(size, req.Limit)
				}
			}
			res, err := c.ReadMany(context.Background(), req)
			if err != nil {
				problem = fmt.Sprintf("page %d: %v", page, err)
				return
			}
			rows := 0
			for _, r := range res {
				if r.Err != nil {
					if !mc.broken[keyIndex(r.Key)] {
						problem = fmt.Sprintf("page %d: %s failed: %v", page, r.Key, r.Err)
						return
					}
					reported[r.Key] = true
					continue
				}
				for _, row := range r.Result.Visible().Rows {
					ck := row.Clustering
					if row.Static {
						ck = "static"
					}
					got = append(got, r.Key+"/"+ck)
					rows++
				}
			}
			if size > 0 && rows > size {
				problem = fmt.Sprintf("page %d: %d rows in a page of %d", page, rows, size)
				return
			}
			req, more = req.Next(res)
		}
		if mc.sizes == nil || mc.limit == 0 {
			for _, k := range mc.list {
				if mc.broken[keyIndex(k)] && !reported[k] {
					problem = k + " failed unreported"
					return
				}
			}
		}
	})
	return got, problem
}

// For random IN lists (repeats included) of keys holding 0–5 rows, or
// static data only, some of which cannot be located, answered with
// latencies that scramble the order in which keys finish, and random
// per-partition limits, limits, page sizes and concurrency, the pages
// followed with Next return each located key's rows, up to its
// per-partition limit, in the list's order, once, up to the LIMIT under a
// page size, no page past its size; every key that cannot be located is
// reported with its error (when paging reaches it), and no other key fails.
func TestReadManyPagingModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		mc := drawModelCase(rt)
		got, problem := mc.run(t)
		if problem != "" {
			rt.Fatal(problem)
		}
		if want := mc.want(); !slices.Equal(want, got) {
			rt.Fatalf("got  %v\nwant %v", got, want)
		}
	})
}
