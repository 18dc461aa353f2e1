package coordinator_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Randomized and hand-worked tests of short-read protection and paging. The reference is the
// reference model of model_ref_test.go (refVisible, refQuery), written
// without the repair/replica merge code, applied to every replica's whole
// partition: Cassandra's DataResolver with ShortReadProtection returns the
// first LIMIT live rows, in the query's order, of the merge of what the
// replicas it read hold.

var srKeys = []string{"", "a", "a\x00", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}

// srGen draws one replica's version: the base rows everywhere, plus
// mutations that this replica alone saw.
type srGen struct {
	r *rand.Rand
}

func (g srGen) ck() string { return srKeys[g.r.IntN(len(srKeys))] }

func (g srGen) ts() int64 { return 11 + g.r.Int64N(10) }

func (g srGen) base(k string, withLiveness []bool) replica.Partition {
	var rows []replica.Row
	for i, ck := range srKeys {
		r := replica.NewRow(ck, replica.Live("v", ck+"0", 10))
		if withLiveness[i] {
			r = r.WithLiveness(replica.Inserted(10))
		}
		rows = append(rows, r)
	}
	return replica.NewPartition(k, rows...)
}

func (g srGen) mutation(k string) replica.Partition {
	ts := g.ts()
	ck := g.ck()
	switch g.r.IntN(12) {
	case 0, 1, 2: // row deletion
		return replica.NewPartition(k, replica.NewRow(ck).WithDeletion(replica.DeletedAt(ts, now-50)))
	case 3, 4: // range deletion
		i := g.r.IntN(len(srKeys))
		j := i + g.r.IntN(min(4, len(srKeys)-i))
		start, end := replica.StartAt(srKeys[i]), replica.EndAt(srKeys[j])
		if g.r.IntN(4) == 0 && i < j {
			start = replica.StartAfter(srKeys[i])
		}
		if g.r.IntN(4) == 0 && i < j {
			end = replica.EndBefore(srKeys[j])
		}
		if start.Compare(end) >= 0 {
			return replica.NewPartition(k)
		}
		return replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(start, end, replica.DeletedAt(ts, now-50)))
	case 5: // cell deletion
		return replica.NewPartition(k, replica.NewRow(ck, replica.Tombstone("v", ts, now-50)))
	case 6: // expired cell
		return replica.NewPartition(k, replica.NewRow(ck, replica.Expiring("v", "x", ts, 60, now-g.r.Int64N(3))))
	case 7: // expired insert (liveness), or one still live
		exp := now - 1 + g.r.Int64N(3)
		return replica.NewPartition(k, replica.NewRow(ck).WithLiveness(replica.InsertedWithTTL(ts, 60, exp)))
	case 8: // a newer insert, maybe of a new key between two
		if g.r.IntN(2) == 0 {
			ck += "1"
		}
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live("v", ck+"n", ts)).WithLiveness(replica.Inserted(ts)))
	case 9: // static cell
		if g.r.IntN(2) == 0 {
			return replica.NewPartition(k).WithStatic(replica.Tombstone("s", ts, now-50))
		}
		return replica.NewPartition(k).WithStatic(replica.Live("s", fmt.Sprint("s", ts), ts))
	case 10: // partition deletion, older than some newer writes
		if g.r.IntN(3) == 0 {
			return replica.NewPartition(k).WithDeletion(replica.DeletedAt(10+g.r.Int64N(3), now-50))
		}
		return replica.NewPartition(k, replica.NewRow(ck).WithDeletion(replica.DeletedAt(ts, now-50)))
	}
	return replica.NewPartition(k, replica.NewRow(ck, replica.Live("v", "u", ts)))
}

// unrepairedCoordinator reads an instant cluster at NEVER without read
// repair, so that every case reads the versions it seeded.
func unrepairedCoordinator(t *testing.T) (*replicatest.Cluster, *coordinator.Coordinator) {
	opts := policy(t, "NEVER")
	opts.ReadRepair = repair.None
	return propertyCoordinator(t, opts)
}

// seeded draws a version of k for each of cl's replicas and seeds it.
func (g srGen) seeded(t *testing.T, cl *replicatest.Cluster, k string) []replica.Partition {
	t.Helper()
	reps := cl.Replicas()
	vs := g.versions(t, k, len(reps))
	for i, r := range reps {
		require.NoError(t, r.Seed(tbl, vs[i]))
	}
	return vs
}

func (g srGen) versions(t *testing.T, k string, n int) []replica.Partition {
	live := make([]bool, len(srKeys))
	for i := range live {
		live[i] = g.r.IntN(3) > 0
	}
	base := g.base(k, live)
	if g.r.IntN(3) == 0 {
		base = base.WithStatic(replica.Live("s", "s10", 10))
	}
	vs := make([]replica.Partition, n)
	for i := range vs {
		vs[i] = base
		for range g.r.IntN(srMut) {
			m, err := repair.Merge(vs[i], g.mutation(k))
			require.NoError(t, err)
			vs[i] = m
		}
	}
	return vs
}

func (g srGen) query() replica.Query {
	q := replica.Query{Reversed: g.r.IntN(2) == 0, Limit: 1 + g.r.IntN(3)}
	switch g.r.IntN(3) {
	case 0:
	case 1:
		i := g.r.IntN(len(srKeys))
		j := i + g.r.IntN(len(srKeys)-i)
		q.Slices = []replica.Slice{{Start: replica.StartAt(srKeys[i]), End: replica.EndAt(srKeys[j])}}
	default:
		var sl []replica.Slice
		for range 2 + g.r.IntN(3) {
			i := g.r.IntN(len(srKeys))
			sl = append(sl, replica.Slice{Start: replica.StartAt(srKeys[i]), End: replica.EndAt(srKeys[i])})
		}
		s, err := replica.NormalizeSlices(sl)
		if err != nil {
			panic(err)
		}
		q.Slices = s
	}
	return q
}

// srExpect is what a client must see: the regular rows of the merge of
// vs (refVisible, refQuery: model_ref_test.go) in ascending order, or the
// static row alone ("" clustering) when the query selects every row and
// the merge has no live row but live static cells.
func srExpect(t *testing.T, vs []replica.Partition, q replica.Query) []refRow {
	rows := ascending(refQuery(refVisible(vs, now, gcBefore), q, nil))
	if len(rows) == 0 && q.SelectsAllRows() {
		purged := make([]replica.Partition, len(vs))
		for i, v := range vs {
			purged[i] = v.Purge(now, gcBefore)
		}
		m, err := repair.Merge(purged...)
		require.NoError(t, err)
		if len(m.Visible(now).Static) > 0 {
			return []refRow{{Clustering: "", Cells: ""}}
		}
	}
	return rows
}

// srRows turns a view into model rows, the static row alone as "" with no
// cells.
func srRows(v replica.View) []refRow {
	var out []refRow
	for _, r := range v.Rows {
		if r.Static {
			out = append(out, refRow{Clustering: ""})
			continue
		}
		out = append(out, viewRow(r))
	}
	return out
}

func srDump(vs []replica.Partition) string {
	var b strings.Builder
	for i, v := range vs {
		fmt.Fprintf(&b, "  replica %d: %v\n", i, v)
	}
	return b.String()
}

// TestShortReadRandomWholeRead: at ALL, for many random sets of
// three replica versions over twelve rows, each hiding rows from the
// others by row, range, cell and partition deletions, expired cells and
// liveness, and adding rows of its own, a limited read (1 to 3 rows, either
// order, one or several slices) returns exactly the model's first rows.
func TestShortReadRandomWholeRead(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mode     repair.Mode
		strategy coordinator.Strategy
	}{
		{"NONE", repair.None, coordinator.DataAndDigests},
		{"BLOCKING", repair.Blocking, coordinator.DataAndDigests},
		{"DigestFirst/NONE", repair.None, coordinator.DigestFirst},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := policy(t, "NEVER")
			opts.ReadRepair, opts.Strategy = tc.mode, tc.strategy
			cl, c := propertyCoordinator(t, opts)
			g := srGen{rand.New(rand.NewPCG(1, uint64(len(tc.name))))}
			for n := range srN {
				k := fmt.Sprint("sr", n)
				vs := g.seeded(t, cl, k)
				q := g.query()
				want := srExpect(t, vs, q)
				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.All, Query: q, NowInSec: now})
				require.NoError(t, err)
				got := srRows(res.Visible())
				if !slices.Equal(got, want) {
					t.Fatalf("case %d: query %+v\n%sgot  %v\nwant %v", n, q, srDump(vs), got, want)
				}
			}
			m := c.Metrics().Total
			t.Logf("mismatches %d, short reads %d", m.DigestMismatches, m.ShortReadRequests)
		})
	}
}

// TestShortReadRandomPaged: the same versions paged with page sizes
// 1 to 3 under an overall LIMIT (or none), at ALL without repair: the
// pages together return the model's rows, each page at most its size.
func TestShortReadRandomPaged(t *testing.T) {
	cl, c := unrepairedCoordinator(t)
	g := srGen{rand.New(rand.NewPCG(7, 9))}
	for n := range srN {
		k := fmt.Sprint("zp", n)
		vs := g.seeded(t, cl, k)
		q := g.query()
		if g.r.IntN(3) == 0 {
			q.Limit = 0
		} else {
			q.Limit += 2
		}
		pageSize := 1 + g.r.IntN(3)
		want := srExpect(t, vs, q)
		if q.Reversed {
			slices.Reverse(want)
		}
		req := coordinator.Request{Table: tbl, Key: k, Level: consistency.All, Query: q, PageSize: pageSize, NowInSec: now}
		var got []refRow
		for page := 0; ; page++ {
			require.Less(t, page, 30)
			res, err := c.Read(context.Background(), req)
			require.NoError(t, err)
			rows := srRows(res.Visible())
			if len(rows) > pageSize {
				t.Fatalf("case %d page %d: %d rows, page size %d", n, page, len(rows), pageSize)
			}
			if q.Reversed {
				slices.Reverse(rows)
			}
			got = append(got, rows...)
			if res.PagingState == nil {
				break
			}
			req.PagingState = res.PagingState
		}
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: query %+v page size %d\n%sgot  %v\nwant %v", n, q, pageSize, srDump(vs), got, want)
		}
	}
	m := c.Metrics().Total
	t.Logf("mismatches %d, short reads %d", m.DigestMismatches, m.ShortReadRequests)
}

var srN, srMut = 600, 10

// TestShortReadRandomMany: IN queries of 2 to 5 keys with a
// per-partition limit (Query.Limit, 0 to 3) and a LIMIT (0 to 6), read
// whole or paged (page sizes 1 to 3) at ALL without repair: the rows,
// static-only partitions counted as a row for a query of every row, are
// the model's per-partition rows, in key order, cut at LIMIT.
func TestShortReadRandomMany(t *testing.T) {
	cl, c := unrepairedCoordinator(t)
	g := srGen{rand.New(rand.NewPCG(3, 5))}
	for n := range srN {
		q := g.query()
		q.Limit = g.r.IntN(4)
		limit := g.r.IntN(7)
		pageSize := g.r.IntN(4)
		var keys []string
		var want []string
		vsOf := map[string][]replica.Partition{}
		for j := range 2 + g.r.IntN(4) {
			k := fmt.Sprintf("zm%d-%d", n, j)
			keys = append(keys, k)
			vs := g.versions(t, k, 3)
			if g.r.IntN(4) == 0 { // static only
				for i := range vs {
					vs[i] = replica.NewPartition(k).WithStatic(replica.Live("s", "s", 10))
					if g.r.IntN(3) == 0 {
						vs[i] = vs[i].WithStatic(replica.Tombstone("s", 11, now-50))
					}
				}
			}
			vsOf[k] = vs
			for i, r := range cl.Replicas() {
				require.NoError(t, r.Seed(tbl, vs[i]))
			}
			rows := srExpect(t, vs, q)
			if q.Reversed {
				slices.Reverse(rows)
			}
			for _, r := range rows {
				want = append(want, k+"/"+r.String())
			}
		}
		if limit > 0 && len(want) > limit {
			want = want[:limit]
		}
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.All, Query: q, Limit: limit, PageSize: pageSize, NowInSec: now}
		var got []string
		for page := 0; ; page++ {
			require.Less(t, page, 60)
			res, err := c.ReadMany(context.Background(), req)
			require.NoError(t, err)
			pageRows := 0
			for _, kr := range res {
				require.NoError(t, kr.Err)
				rows := srRows(kr.Result.Visible())
				if q.Reversed {
					slices.Reverse(rows)
				}
				for _, r := range rows {
					got = append(got, kr.Key+"/"+r.String())
					pageRows++
				}
			}
			if size := pageSize; size > 0 || limit > 0 {
				if size == 0 || (limit > 0 && limit < size) {
					size = limit
				}
				if pageRows > size {
					t.Fatalf("case %d page %d: %d rows, more than %d", n, page, pageRows, size)
				}
			}
			next, more := req.Next(res)
			if !more || (pageSize == 0 && limit > 0) {
				break
			}
			req = next
		}
		if !slices.Equal(got, want) {
			var dump strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&dump, "%s:\n%s", k, srDump(vsOf[k]))
			}
			t.Fatalf("case %d: query %+v limit %d page size %d\n%sgot  %v\nwant %v", n, q, limit, pageSize, dump.String(), got, want)
		}
	}
	m := c.Metrics().Total
	t.Logf("mismatches %d, short reads %d", m.DigestMismatches, m.ShortReadRequests)
}

// TestShortReadPagingWhileWriting: paging (sizes 1 to 3, under a
// LIMIT or none) at ALL without repair while each replica takes writes of
// its own between pages. As Cassandra's pager, each page is the first rows
// of the merge as the replicas hold it when it is read, strictly after the
// last row returned before, up to the page size and to what the LIMIT
// leaves.
func TestShortReadPagingWhileWriting(t *testing.T) {
	cl, c := unrepairedCoordinator(t)
	g := srGen{rand.New(rand.NewPCG(11, 13))}
	for n := range srN {
		k := fmt.Sprint("zw", n)
		vs := g.seeded(t, cl, k)
		reps := cl.Replicas()
		q := g.query()
		limit := 0
		if g.r.IntN(2) == 0 {
			limit = q.Limit + 2
		}
		q.Limit = limit
		pageSize := 1 + g.r.IntN(3)
		req := coordinator.Request{Table: tbl, Key: k, Level: consistency.All, Query: q, PageSize: pageSize, NowInSec: now}
		var last *string
		left := limit
		for page := 0; ; page++ {
			require.Less(t, page, 40)
			pq := q
			pq.Limit = pageSize
			if limit > 0 {
				pq.Limit = min(pageSize, left)
			}
			var want []refRow
			if last == nil {
				want = srExpect(t, vs, pq)
			} else {
				want = ascending(refQuery(refVisible(vs, now, gcBefore), pq, last))
			}
			res, err := c.Read(context.Background(), req)
			require.NoError(t, err)
			got := srRows(res.Visible())
			if !slices.Equal(got, want) {
				t.Fatalf("case %d page %d after %q: query %+v page size %d\n%sgot  %v\nwant %v", n, page, deref(last), q, pageSize, srDump(vs), got, want)
			}
			if res.PagingState == nil {
				break
			}
			rows := want
			if q.Reversed {
				last = &rows[0].Clustering
			} else {
				last = &rows[len(rows)-1].Clustering
			}
			left -= len(rows)
			req.PagingState = res.PagingState
			for range g.r.IntN(3) {
				i := g.r.IntN(3)
				m, err := repair.Merge(vs[i], g.mutation(k))
				require.NoError(t, err)
				vs[i] = m
				require.NoError(t, reps[i].Seed(tbl, m))
			}
		}
	}
	m := c.Metrics().Total
	t.Logf("mismatches %d, short reads %d", m.DigestMismatches, m.ShortReadRequests)
}

// ---- Targeted scenarios, each run by runDtest (dtest_shortread_test.go)
// at ALL and at QUORUM with every pair of replicas, NONE and BLOCKING
// repair, both strategies, unpaged and paged by 1 and 10. A write
// toNode(n) reaches node n at ALL and nodes n, n+1 at QUORUM, so every
// pair of replicas sees every write and the expected rows are those of the
// merge of all writes.

func srRows9() dtestScenario {
	var s dtestScenario
	for i := 1; i <= 9; i++ {
		s = append(s, allNodes(p(insV(fmt.Sprint(i), 1))))
	}
	return s
}

// Reversed LIMIT 2 where node1 deleted 9, 7, 5 and node2 8, 6, 4: each
// replica's continuation is dead in the other, over several rounds. The
// merge's live rows, descending, are 3, 2, 1 (ShortReadProtectionTest.
// testDescendingOrder with interleaved deletions).
func TestShortReadReversedInterleavedDeletions(t *testing.T) {
	s := append(srRows9(),
		toNode(1, p(del("9", 2), del("7", 2), del("5", 2))),
		toNode(2, p(del("8", 2), del("6", 2), del("4", 2))))
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 2, Reversed: true}, "3:30", "2:20")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 1, Reversed: true}, "3:30")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 4, Reversed: true}, "3:30", "2:20", "1:10")
}

// A range deletion newer than the rows on node1 only, and a row written
// after it on node2: DELETE WHERE ck >= 3 AND ck <= 8 (ts 2) on node1,
// INSERT ck = 5 (ts 3) on node2. Live: 1, 2, 5, 9.
func TestShortReadRangeDeletionOnOneNodeWithNewerRow(t *testing.T) {
	rt := replica.NewRangeTombstone(replica.StartAt("3"), replica.EndAt("8"), replica.DeletedAt(2, now-100))
	s := append(srRows9(), toNode(1, p().WithRangeTombstones(rt)), toNode(2, p(insV("5", 3))))
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 2, Reversed: true}, "9:90", "5:50")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 3}, "1:10", "2:20", "5:50")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 3, Reversed: true}, "9:90", "5:50", "2:20")
	// a slice that starts inside the deletion: ck > 2 AND ck < 9
	sl := []replica.Slice{{Start: replica.StartAfter("2"), End: replica.EndBefore("9")}}
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Slices: sl, Limit: 1, Reversed: true}, "5:50")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Slices: sl, Limit: 1}, "5:50")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Slices: sl, Limit: 2}, "5:50")
}

// expiredIns is INSERT (k, c, v) VALUES (0, c, c*10) USING TTL 60 at ts,
// expired by the read's time.
func expiredIns(c string, ts int64) replica.Row {
	return replica.NewRow(c, replica.Expiring("v", c+"0", ts, 60, now-1)).WithLiveness(replica.InsertedWithTTL(ts, 60, now-1))
}

// Rows 1 and 2 overwritten on node2 by an INSERT USING TTL that has
// expired at the read's time, row 3 by an UPDATE USING TTL (cell only,
// expired): the expired writes win by timestamp, so rows 1 and 2 are gone
// (neither liveness nor cell is live) and row 3 still exists by its older
// liveness with v null. LIMIT counts live rows at nowInSec: 3 (v null), 4.
func TestShortReadExpiredTTLHidesRowsOnOneNode(t *testing.T) {
	s := append(srRows9(),
		toNode(2, p(expiredIns("1", 2), expiredIns("2", 2),
			replica.NewRow("3", replica.Expiring("v", "x", 2, 60, now-1)))))
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 2}, "3:null", "4:40")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 1}, "3:null")
	sl := []replica.Slice{{Start: replica.Bottom(), End: replica.EndAt("3")}}
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Slices: sl, Limit: 2, Reversed: true}, "3:null")
}

// A partition with a static column and rows 1, 2, 3, whose rows are all
// deleted, node1 deleting 1 and 2, node2 deleting 3. A query of every row
// with LIMIT 1 shows the static row alone (StaticColumnsTest, Cassandra's
// countPartitionsWithOnlyStaticData); a query with a clustering slice
// shows nothing; ascending and descending alike.
func TestShortReadStaticOnlyAfterShortRead(t *testing.T) {
	s := dtestScenario{
		allNodes(p(insV("1", 1), insV("2", 1), insV("3", 1)).WithStatic(replica.Live("s", "st", 1))),
		toNode(1, p(del("1", 2), del("2", 2))),
		toNode(2, p(del("3", 2))),
	}
	for _, rev := range []bool{false, true} {
		runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 1, Reversed: rev}, "static:null")
		runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 2, Reversed: rev}, "static:null")
		sl := []replica.Slice{{Start: replica.StartAt("1"), End: replica.Top()}}
		runDtest(t, s, coordinator.TableOptions{}, replica.Query{Slices: sl, Limit: 1, Reversed: rev})
	}
	// one row left live, 2: it is the one row, the static row joined to it
	s2 := dtestScenario{s[0], s[1], toNode(2, p(del("3", 2))), toNode(3, p(del("1", 3)))}
	s2[1] = toNode(1, p(del("1", 2)))
	for _, rev := range []bool{false, true} {
		runDtest(t, s2, coordinator.TableOptions{}, replica.Query{Limit: 1, Reversed: rev}, "2:20")
		runDtest(t, s2, coordinator.TableOptions{}, replica.Query{Limit: 5, Reversed: rev}, "2:20")
	}
}

// A page boundary on a row deleted on one replica: rows 1..9, node1
// deleted 2, node2 deleted 3 and 5. LIMIT 4 (unpaged, and in pages of 1
// and 10): 1, 4, 6, 7; descending: 9, 8, 7, 6.
func TestShortReadPageBoundaryOnDeletedRow(t *testing.T) {
	s := append(srRows9(), toNode(1, p(del("2", 2))), toNode(2, p(del("3", 2), del("5", 2))))
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 4}, "1:10", "4:40", "6:60", "7:70")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{Limit: 4, Reversed: true}, "9:90", "8:80", "7:70", "6:60")
	runDtest(t, s, coordinator.TableOptions{}, replica.Query{}, "1:10", "4:40", "6:60", "7:70", "8:80", "9:90")
}

// IN (p0, p1, p2) PER PARTITION LIMIT 1 LIMIT 2: p0 holds only a static
// column, p1 rows 0, 1, 2 with 0 deleted on node1 and 1 on node2, p2 rows
// 0, 1. A partition with only static data counts as one row for a query of
// every row (SelectLimitTest.testPerPartitionLimitWithStaticDataAndPaging):
// p0's static row, then p1's row 2.
func TestShortReadInPerPartitionLimitWithStaticOnly(t *testing.T) {
	s := dtestScenario{
		allNodes(pk("p0").WithStatic(replica.Live("s", "st", 1))),
		allNodes(pk("p1", insPK("0", 1), insPK("1", 1), insPK("2", 1))),
		allNodes(pk("p2", insPK("0", 1), insPK("1", 1))),
		toNode(1, pk("p1", del("0", 2))),
		toNode(2, pk("p1", del("1", 2))),
	}
	runManyDtest(t, s, coordinator.TableOptions{}, []string{"p0", "p1", "p2"}, replica.Query{Limit: 1}, 2, "p0/", "p1/2")
	runManyDtest(t, s, coordinator.TableOptions{}, []string{"p0", "p1", "p2"}, replica.Query{Limit: 2}, 4, "p0/", "p1/2", "p2/0", "p2/1")
	runManyDtest(t, s, coordinator.TableOptions{}, []string{"p0", "p1", "p2"}, replica.Query{Limit: 2, Reversed: true}, 3, "p0/", "p1/2", "p2/1")
	// a clustering slice: p0 shows nothing and counts nothing
	sl := []replica.Slice{{Start: replica.StartAt("0"), End: replica.Top()}}
	runManyDtest(t, s, coordinator.TableOptions{}, []string{"p0", "p1", "p2"}, replica.Query{Slices: sl, Limit: 1}, 2, "p1/2", "p2/0")
}

// TestShortReadRandomQuorum: as the whole-read test, at QUORUM
// (and ALWAYS speculation, so that some reads merge three versions): the
// result is the model's rows of the versions of the replicas whose data
// the read used.
func TestShortReadRandomQuorum(t *testing.T) {
	for _, retry := range []string{"NEVER", "ALWAYS"} {
		t.Run(retry, func(t *testing.T) {
			opts := policy(t, retry)
			opts.ReadRepair = repair.None
			cl, c := propertyCoordinator(t, opts)
			g := srGen{rand.New(rand.NewPCG(17, uint64(len(retry))))}
			for n := range srN {
				k := fmt.Sprint("zq", n)
				vs := g.versions(t, k, 3)
				byID := map[string]replica.Partition{}
				for i, r := range cl.Replicas() {
					require.NoError(t, r.Seed(tbl, vs[i]))
					byID[r.Endpoint().ID] = vs[i]
				}
				q := g.query()
				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.Quorum, Query: q, NowInSec: now})
				require.NoError(t, err)
				var usedVs []replica.Partition
				for _, id := range used(res.Trace) {
					usedVs = append(usedVs, byID[id])
				}
				want := srExpect(t, usedVs, q)
				got := srRows(res.Visible())
				if !slices.Equal(got, want) {
					t.Fatalf("case %d: query %+v used %v\n%sgot  %v\nwant %v", n, q, used(res.Trace), srDump(usedVs), got, want)
				}
			}
			m := c.Metrics().Total
			t.Logf("mismatches %d, short reads %d", m.DigestMismatches, m.ShortReadRequests)
		})
	}
}
