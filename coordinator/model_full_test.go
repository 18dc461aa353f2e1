package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// The whole read against a model with the full data model: statics,
// collections with complex deletions, TTL cells and row liveness expiring
// around nowInSec, row, range and partition deletions with timestamp ties,
// over 3 to 5 replicas, BLOCKING repair; paged reads, IN queries and
// monotonic quorum reads, which the simpler model's tests do not cover.
// The oracle: the merge of every replica's (purged) version answered as a
// single node by replica.Command.Respond.

var fullKeys = []string{"k1", "k2", "k3"}

func fullWriteAt(t *rapid.T, k string, recent bool) replica.Partition {
	ts := rapid.Int64Range(1, 4).Draw(t, "ts")
	ck := rapid.SampledFrom(modelClusterings).Draw(t, "ck")
	col := rapid.SampledFrom([]string{"v", "w"}).Draw(t, "col")
	val := rapid.SampledFrom([]string{"", "x", "y"}).Draw(t, "val")
	at := int64(now - 10)
	if recent {
		at = now - rapid.Int64Range(0, 8).Draw(t, "deleted secs ago")
	}
	exp := func() int64 { return now + rapid.Int64Range(-1, 1).Draw(t, "exp") }
	switch rapid.IntRange(0, 15).Draw(t, "kind") {
	case 0, 1:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live(col, val, ts)))
	case 2:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Tombstone(col, ts, at)))
	case 3:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Expiring(col, val, ts, 60, exp())))
	case 4:
		return replica.NewPartition(k, replica.NewRow(ck).WithLiveness(replica.Inserted(ts)))
	case 5:
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live(col, val, ts)).WithLiveness(replica.InsertedWithTTL(ts, 60, exp())))
	case 6:
		return replica.NewPartition(k, replica.NewRow(ck).WithDeletion(replica.DeletedAt(ts, at)))
	case 7, 8:
		s := modelSlice(t)
		p := replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(s.Start, s.End, replica.DeletedAt(ts, at)))
		if p.Validate() != nil {
			return replica.NewPartition(k) // an empty range, with clusterings one apart
		}
		return p
	case 9:
		return replica.NewPartition(k).WithDeletion(replica.DeletedAt(ts, at))
	case 10:
		switch rapid.IntRange(0, 2).Draw(t, "static kind") {
		case 0:
			return replica.NewPartition(k).WithStatic(replica.Tombstone("s", ts, at))
		case 1:
			return replica.NewPartition(k).WithStatic(replica.Expiring("s", val, ts, 60, exp()))
		}
		return replica.NewPartition(k).WithStatic(replica.Live("s", val, ts))
	case 11:
		path := rapid.SampledFrom([]string{"p1", "p2"}).Draw(t, "path")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live("m", val, ts).WithPath(path)))
	case 12:
		path := rapid.SampledFrom([]string{"p1", "p2"}).Draw(t, "path")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live("m", val, ts).WithPath(path)).
			WithComplexDeletion("m", replica.DeletedAt(ts-1, at)))
	case 13:
		return replica.NewPartition(k, replica.NewRow(ck).WithComplexDeletion("m", replica.DeletedAt(ts, at)))
	case 14:
		path := rapid.SampledFrom([]string{"p1", "p2"}).Draw(t, "path")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Expiring("m", val, ts, 60, exp()).WithPath(path)))
	}
	return replica.NewPartition(k, replica.NewRow(ck, replica.Live(col, val, ts)).WithLiveness(replica.Inserted(ts)))
}

type fullRun struct {
	t        *rapid.T
	cl       *replicatest.Cluster
	c        *coordinator.Coordinator
	n        int
	ids      []string
	versions map[string]map[string]replica.Partition // key -> replica -> version
	cols     []string
	gcBefore int64
}

func newFullRun(t *rapid.T) *fullRun { return newFullRunOpts(t, false) }

func newFullRunOpts(t *rapid.T, timed bool) *fullRun {
	n := rapid.IntRange(3, 5).Draw(t, "replicas")
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: n, Nodes: n}},
		Replication: consistency.Simple(n),
	})
	if err != nil {
		t.Fatalf("cluster: %v", err)
	}
	m := &fullRun{t: t, cl: cl, n: n, versions: map[string]map[string]replica.Partition{}, gcBefore: gcBefore}
	grace := int64(0)
	if timed {
		grace = rapid.SampledFrom([]int64{0, -1, 4}).Draw(t, "gc grace")
		m.gcBefore = now - map[int64]int64{0: 864000, -1: 0, 4: 4}[grace]
	}
	for _, r := range cl.Replicas() {
		m.ids = append(m.ids, r.Endpoint().ID)
	}
	for _, k := range fullKeys {
		if err := cl.Pin(tbl, k, m.ids...); err != nil {
			t.Fatalf("pin: %v", err)
		}
		vs := map[string]replica.Partition{}
		for _, id := range m.ids {
			vs[id] = replica.NewPartition(k)
		}
		for range rapid.IntRange(map[bool]int{false: 0, true: 4}[timed], 12).Draw(t, "writes "+k) {
			p := fullWriteAt(t, k, timed)
			to := rapid.IntRange(1, 1<<n-1).Draw(t, "to")
			for i, id := range m.ids {
				if to&(1<<i) != 0 {
					vs[id], err = repair.Merge(vs[id], p)
					if err != nil {
						t.Fatalf("merge: %v", err)
					}
				}
			}
		}
		for _, id := range m.ids {
			if err := cl.Replica(id).Seed(tbl, vs[id]); err != nil {
				t.Fatalf("seed: %v", err)
			}
		}
		m.versions[k] = vs
	}
	spec, _ := latency.ParseSpeculativeRetry(rapid.SampledFrom([]string{"NEVER", "ALWAYS"}).Draw(t, "spec"))
	if timed {
		spec, _ = latency.ParseSpeculativeRetry(rapid.SampledFrom([]string{"NEVER", "ALWAYS", "2ms", "99p"}).Draw(t, "spec"))
		for i, id := range m.ids {
			b := replicatest.Behavior{Latency: replicatest.Constant(ms(float64(rapid.IntRange(0, 6).Draw(t, "latency ms"))) + ms(0.1*float64(i)))}
			if err := cl.Replica(id).SetBehavior(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	opts := coordinator.TableOptions{SpeculativeRetry: spec, ReadRepair: repair.Blocking, GCGraceSeconds: grace,
		Strategy: rapid.SampledFrom([]coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst}).Draw(t, "strategy")}
	m.c, err = coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, DefaultTable: opts})
	if err != nil {
		t.Fatalf("coordinator: %v", err)
	}
	m.cols = rpColumns(t)
	if timed && rapid.IntRange(0, 5).Draw(t, "no columns") == 0 {
		m.cols = []string{}
	}
	return m
}

// oracle answers q on the merge of the versions of k held by ids, as a
// single node: the rows a client sees, in q's order.
func (m *fullRun) oracle(k string, ids []string, q replica.Query) []replica.ViewRow {
	var ps []replica.Partition
	for _, id := range ids {
		ps = append(ps, m.versions[k][id].Purge(now, m.gcBefore))
	}
	merged, err := repair.Merge(ps...)
	if err != nil {
		m.t.Fatalf("merge: %v", err)
	}
	resp, err := replica.Command{Table: tbl, Key: k, Query: q, Columns: m.cols, NowInSec: now, GCBefore: m.gcBefore}.Respond(merged)
	if err != nil {
		m.t.Fatalf("respond: %v", err)
	}
	return clientRows(resp.Partition.Visible(now), q)
}

func clientRows(v replica.View, q replica.Query) []replica.ViewRow {
	rows := slices.Clone(v.Rows)
	if len(rows) == 1 && rows[0].Static && !q.SelectsAllRows() {
		rows = nil
	}
	if q.Reversed {
		slices.Reverse(rows)
	}
	return rows
}

func rowsString(rows []replica.ViewRow) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "\n    %v", r)
	}
	return b.String()
}

// At ALL, paging a single partition with a page size and a limit returns
// the oracle's rows exactly once, in order, each page but the last full.
func TestWholeModelPagingAtAll(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newFullRun(t)
		defer m.c.Close()
		q := modelQuery(t)
		ps := rapid.IntRange(0, 3).Draw(t, "page size")
		k := fullKeys[0]
		req := coordinator.Request{Table: tbl, Key: k, Level: consistency.All, Query: q, Columns: m.cols, NowInSec: now, PageSize: ps}
		// Without a page size the limit is the page size (Request.PageSize).
		oq := q
		if ps == 0 {
			oq.Limit = 0
		}
		want := m.oracle(k, m.ids, oq)
		page := ps
		if page == 0 {
			page = q.Limit
		} else if q.Limit > 0 {
			page = min(page, q.Limit)
		}
		var got []replica.ViewRow
		var sizes []int
		for i := 0; ; i++ {
			if i > 20 {
				t.Fatalf("paging does not end")
			}
			res, err := m.c.Read(context.Background(), req)
			if err != nil {
				t.Fatalf("page %d: %v", i, err)
			}
			rows := clientRows(res.Visible(), req.Query)
			got = append(got, rows...)
			sizes = append(sizes, len(rows))
			if res.PagingState == nil {
				break
			}
			req.PagingState = res.PagingState
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pages %v returned%s\nthe oracle holds%s\nversions %v", sizes, rowsString(got), rowsString(want), m.versions[k])
		}
		for i, s := range sizes[:len(sizes)-1] {
			if page > 0 && s != page {
				t.Fatalf("page %d of %v holds %d rows, page size %d", i, sizes, s, page)
			}
		}
	})
}

// At ALL, an IN query (ReadMany) paged by Next returns, key by key, each
// key's oracle rows up to the per-partition limit, cut at the Limit.
func TestWholeModelReadManyAtAll(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newFullRun(t)
		defer m.c.Close()
		readManyAtAllMatchesTheOracle(t, m)
	})
}

func TestWholeModelReadManyAtAllTimed(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		inBubble(t, func() {
			m := newFullRunOpts(rt, true)
			defer func() { m.c.Close(); time.Sleep(time.Second) }()
			readManyAtAllMatchesTheOracle(rt, m)
		})
	})
}

func readManyAtAllMatchesTheOracle(t *rapid.T, m *fullRun) {
	{
		q := modelQuery(t)
		keys := rapid.Permutation(fullKeys).Draw(t, "keys")[:rapid.IntRange(1, 3).Draw(t, "nkeys")]
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.All, Query: q, Columns: m.cols, NowInSec: now,
			Limit: rapid.IntRange(0, 5).Draw(t, "limit"), PageSize: rapid.IntRange(0, 3).Draw(t, "page size"),
			Concurrency: rapid.IntRange(1, 3).Draw(t, "concurrency")}
		if req.Limit == 0 && req.PageSize > 0 && rapid.Bool().Draw(t, "no paging") {
			req.PageSize = 0
		}
		type kr struct {
			K string
			R replica.ViewRow
		}
		var want []kr
		for _, k := range keys {
			for _, r := range m.oracle(k, m.ids, q) {
				want = append(want, kr{k, r})
			}
		}
		// Without a PageSize the Limit is the pages' size (ManyRequest.Limit).
		if req.PageSize > 0 && req.Limit > 0 && len(want) > req.Limit {
			want = want[:req.Limit]
		}
		page := req.PageSize
		if page == 0 {
			page = req.Limit
		}
		var got []kr
		var sizes []int
		for i := 0; ; i++ {
			if i > 30 {
				t.Fatalf("paging does not end")
			}
			res, err := m.c.ReadMany(context.Background(), req)
			if err != nil {
				t.Fatalf("page %d: %v", i, err)
			}
			n := 0
			for _, r := range res {
				if r.Err != nil {
					t.Fatalf("page %d key %s: %v", i, r.Key, r.Err)
				}
				for _, row := range clientRows(r.Result.Visible(), q) {
					got = append(got, kr{r.Key, row})
					n++
				}
			}
			sizes = append(sizes, n)
			next, ok := req.Next(res)
			if !ok {
				break
			}
			req = next
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pages %v returned\n  %v\nthe oracle holds\n  %v\nversions %v", sizes, got, want, m.versions)
		}
		for i, s := range sizes[:len(sizes)-1] {
			if page > 0 && s != page {
				t.Fatalf("page %d of %v holds %d rows, page size %d", i, sizes, s, page)
			}
		}
	}
}

// Any read at ONE or QUORUM returns the oracle of the replicas whose data
// it used; after a BLOCKING read at QUORUM another QUORUM read, over a
// different quorum, returns nothing older than the first did.
func TestWholeModelMonotonicQuorum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newFullRun(t)
		defer m.c.Close()
		q := modelQuery(t)
		q.Limit = 0
		k := fullKeys[0]
		level := rapid.SampledFrom([]consistency.Level{consistency.One, consistency.Quorum}).Draw(t, "level")
		req := coordinator.Request{Table: tbl, Key: k, Level: level, Query: q, Columns: m.cols, NowInSec: now}
		r1, err := m.c.Read(context.Background(), req)
		if err != nil {
			t.Fatalf("read 1: %v", err)
		}
		u1 := used(r1.Trace)
		if got, want := clientRows(r1.Visible(), q), m.oracle(k, u1, q); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("read from %v returned%s\nthe oracle of their versions holds%s\nversions %v", u1, rowsString(got), rowsString(want), m.versions[k])
		}
		if level != consistency.Quorum {
			return
		}
		// Another quorum: take down some of the first read's contacts.
		quorum := m.n/2 + 1
		down := 0
		for _, id := range u1 {
			if down < m.n-quorum && rapid.Bool().Draw(t, "down "+id) {
				if err := m.cl.SetAlive(id, false); err != nil {
					t.Fatal(err)
				}
				down++
			}
		}
		r2, err := m.c.Read(context.Background(), req)
		if err != nil {
			t.Fatalf("read 2: %v", err)
		}
		dom, err := repair.Merge(r1.Partition, r2.Partition)
		if err != nil {
			t.Fatal(err)
		}
		v2 := clientRows(r2.Visible(), q)
		vd := clientRows(replica.View(dom.Visible(now)), q)
		if fmt.Sprint(v2) != fmt.Sprint(vd) {
			t.Fatalf("QUORUM read after a BLOCKING QUORUM read from %v returned%s\nthe first returned%s\ntogether they hold%s\nsecond used %v; versions %v",
				u1, rowsString(v2), rowsString(clientRows(r1.Visible(), q)), rowsString(vd), used(r2.Trace), m.versions[k])
		}
	})
}

// snap refreshes the versions from what the replicas hold now.
func (m *fullRun) snap() {
	for _, k := range fullKeys {
		for _, id := range m.ids {
			p, _ := m.cl.Replica(id).Partition(tbl, k)
			if p.Key == "" {
				p.Key = k
			}
			m.versions[k][id] = p
		}
	}
}

// Paging at any level over replicas that answer at different speeds, with
// a different set of live replicas for each page: every page is the
// oracle of the versions it used (held then) for the rest of the query,
// so each live row comes once, in order, and every page but the last is
// full.
func TestWholeModelPagingTimed(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		inBubble(t, func() {
			m := newFullRunOpts(rt, true)
			defer func() { m.c.Close(); time.Sleep(time.Second) }()
			t := rt
			q := modelQuery(t)
			ps := rapid.IntRange(0, 3).Draw(t, "page size")
			level := rapid.SampledFrom([]consistency.Level{consistency.One, consistency.Quorum, consistency.All}).Draw(t, "level")
			k := fullKeys[0]
			req := coordinator.Request{Table: tbl, Key: k, Level: level, Query: q, Columns: m.cols, NowInSec: now, PageSize: ps}
			remaining := q.Limit
			var last *string
			for i := 0; ; i++ {
				if i > 20 {
					t.Fatalf("paging does not end")
				}
				if level != consistency.All {
					alive := 0
					for _, id := range m.ids {
						up := rapid.IntRange(0, 2).Draw(t, "up") > 0 || alive < m.n/2+1 && id == m.ids[len(m.ids)-1]
						_ = m.cl.SetAlive(id, up)
						if up {
							alive++
						}
					}
					if alive < level.BlockFor(consistency.Simple(m.n), "") {
						for _, id := range m.ids {
							_ = m.cl.SetAlive(id, true)
						}
					}
				}
				m.snap()
				res, err := m.c.Read(context.Background(), req)
				if err != nil {
					t.Fatalf("page %d: %v", i, err)
				}
				cq := q
				if last != nil {
					cq = q.After(*last)
				}
				cq.Limit = ps
				if ps == 0 {
					cq.Limit = q.Limit
				} else if remaining > 0 {
					cq.Limit = min(ps, remaining)
				}
				u := used(res.Trace)
				got, want := clientRows(res.Visible(), q), m.oracle(k, u, cq)
				if last != nil {
					want = slices.DeleteFunc(want, func(r replica.ViewRow) bool { return r.Static })
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("page %d (after %v) from %v returned%s\nthe oracle of their versions holds%s\nversions %v", i, deref(last), u, rowsString(got), rowsString(want), m.versions[k])
				}
				if res.PagingState == nil {
					if cq.Limit > 0 && len(got) == cq.Limit && (ps == 0 || remaining == 0 || remaining > cq.Limit) {
						rest := q
						if l := lastCK(got); l != nil {
							rest = q.After(*l)
						} else if last != nil {
							rest = q.After(*last)
						}
						rest.Limit = 0
						if left := m.oracle(k, u, rest); len(slices.DeleteFunc(left, func(r replica.ViewRow) bool { return r.Static })) > 0 {
							t.Fatalf("page %d ended paging with rows left: %v", i, left)
						}
					}
					return
				}
				if l := lastCK(got); l != nil {
					last = l
				}
				if ps > 0 && remaining > 0 {
					remaining -= len(got)
				}
				req.PagingState = res.PagingState
			}
		})
	})
}

func lastCK(rows []replica.ViewRow) *string {
	for i := len(rows) - 1; i >= 0; i-- {
		if !rows[i].Static {
			c := rows[i].Clustering
			return &c
		}
	}
	return nil
}

// Monotonic quorum reads over replicas that answer at different speeds,
// with limits, orders and projections: after a BLOCKING read at QUORUM
// (its first page), another read at QUORUM over another quorum returns,
// in the part of the partition it covers, nothing older than the first.
func TestWholeModelMonotonicTimed(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		inBubble(t, func() {
			m := newFullRunOpts(rt, true)
			defer func() { m.c.Close(); time.Sleep(time.Second) }()
			t := rt
			if m.gcBefore > now-100 {
				return // purgeable tombstones resurrect data: documented, not monotonic
			}
			q := modelQuery(t)
			k := fullKeys[rapid.IntRange(0, 2).Draw(t, "key")]
			req := coordinator.Request{Table: tbl, Key: k, Level: consistency.Quorum, Query: q, Columns: m.cols, NowInSec: now,
				PageSize: rapid.IntRange(0, 2).Draw(t, "page size")}
			var r1 coordinator.Result
			var err error
			if rapid.Bool().Draw(t, "by ReadMany") {
				var rs []coordinator.KeyResult
				rs, err = m.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{k}, Level: consistency.Quorum,
					Query: q, Columns: m.cols, NowInSec: now, PageSize: req.PageSize})
				if err == nil {
					r1, err = rs[0].Result, rs[0].Err
				}
			} else {
				r1, err = m.c.Read(context.Background(), req)
			}
			if err != nil {
				t.Fatalf("read 1: %v", err)
			}
			u1 := used(r1.Trace)
			quorum := m.n/2 + 1
			down := 0
			for _, id := range u1 {
				if down < m.n-quorum && rapid.Bool().Draw(t, "down "+id) {
					_ = m.cl.SetAlive(id, false)
					down++
				}
			}
			req.PageSize = 0
			r2, err := m.c.Read(context.Background(), req)
			if err != nil {
				t.Fatalf("read 2: %v", err)
			}
			got := clientRows(r2.Visible(), q)
			covered := func(ck string) bool { return true }
			if n := len(slices.DeleteFunc(slices.Clone(got), func(r replica.ViewRow) bool { return r.Static })); q.Limit > 0 && n == q.Limit {
				last := *lastCK(got)
				covered = func(ck string) bool { return (!q.Reversed && ck <= last) || (q.Reversed && ck >= last) }
			}
			dom, err := repair.Merge(r1.Partition, r2.Partition)
			if err != nil {
				t.Fatal(err)
			}
			want := clientRows(dom.Restrict(replica.Query{Slices: q.Slices}).Visible(now), q)
			filter := func(rows []replica.ViewRow) []replica.ViewRow {
				return slices.DeleteFunc(slices.Clone(rows), func(r replica.ViewRow) bool { return !r.Static && !covered(r.Clustering) })
			}
			if fmt.Sprint(filter(got)) != fmt.Sprint(filter(want)) {
				t.Fatalf("QUORUM read after a BLOCKING QUORUM read from %v returned%s\nthe first returned%s\ntogether they hold%s\nsecond used %v; versions %v",
					u1, rowsString(got), rowsString(clientRows(r1.Visible(), q)), rowsString(filter(want)), used(r2.Trace), m.versions[k])
			}
		})
	})
}
