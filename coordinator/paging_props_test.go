package coordinator_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// gcBefore is the reads' gcBefore under the default gc_grace_seconds:
// replicas purge the tombstones deleted before it.
const gcBefore = now - 864000

// For random writes, each reaching a random subset of the replicas, and
// random slices, orders, limits and column selections, paging through a
// partition returns exactly the rows, cells included, that a client reading
// it whole sees of the merged partition, in the query's order; each page
// holds at most the limit of rows, and exactly the limit when it hands out
// a paging state. At QUORUM the replicas hold A, B and their merge, in any
// order, so that any two of them merge to what all three do.
func TestPagingReturnsTheMergedView(t *testing.T) {
	for _, tc := range []struct {
		name     string
		level    consistency.Level
		retry    string
		mode     repair.Mode
		strategy coordinator.Strategy
	}{
		{"ALL/BLOCKING", consistency.All, "NEVER", repair.Blocking, coordinator.DataAndDigests},
		{"ALL/NONE", consistency.All, "NEVER", repair.None, coordinator.DataAndDigests},
		{"ALL/DigestFirst", consistency.All, "NEVER", repair.Blocking, coordinator.DigestFirst},
		{"QUORUM/ALWAYS", consistency.Quorum, "ALWAYS", repair.Blocking, coordinator.DataAndDigests},
		{"QUORUM/DigestFirst", consistency.Quorum, "NEVER", repair.Blocking, coordinator.DigestFirst},
		{"QUORUM/DigestFirst/ALWAYS", consistency.Quorum, "ALWAYS", repair.Blocking, coordinator.DigestFirst},
		{"QUORUM/DigestFirst/NONE", consistency.Quorum, "ALWAYS", repair.None, coordinator.DigestFirst},
		{"ALL/DigestFirst/NONE", consistency.All, "ALWAYS", repair.None, coordinator.DigestFirst},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := policy(t, tc.retry)
			opts.ReadRepair, opts.Strategy = tc.mode, tc.strategy
			cl, c := propertyCoordinator(t, opts)
			quorum := tc.level == consistency.Quorum
			g := newPageGen(quorum)
			n := 0
			rapid.Check(t, func(t *rapid.T) {
				n++
				req := coordinator.Request{Table: tbl, Key: fmt.Sprint("paged", n), Level: tc.level,
					Query: g.query(t), Columns: g.columns(t), NowInSec: now}
				var vs []replica.Partition
				if quorum {
					ab := g.versions(t, req.Key, 2)
					vs = rapid.Permutation(append(ab, merge(t, ab...))).Draw(t, "placement")
				} else {
					vs = g.versions(t, req.Key, 3)
				}
				pagesAgainstWhole(t, cl, c, req, vs)
			})
		})
	}
}

// propertyCoordinator is a coordinator reading with opts over an instant
// cluster of three, for the paging properties, which run outside a bubble.
func propertyCoordinator(t *testing.T, opts coordinator.TableOptions) (*replicatest.Cluster, *coordinator.Coordinator) {
	t.Helper()
	cl := instantCluster(t)
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, DefaultTable: opts})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return cl, c
}

// pagesAgainstWhole seeds the i-th replica of cl with vs[i] and checks that
// paging through req on c returns what one unlimited read of their merge
// shows.
func pagesAgainstWhole(t *rapid.T, cl *replicatest.Cluster, c *coordinator.Coordinator, req coordinator.Request, vs []replica.Partition) {
	for i, r := range cl.Replicas() {
		require.NoError(t, r.Seed(tbl, vs[i]))
	}
	want, static := wholeRead(t, vs, req)
	got := pageThrough(t, c, req, static)
	require.True(t, slices.EqualFunc(got, want, replica.ViewRow.Equal), "replicas %v\nquery %+v columns %q\ngot  %v\nwant %v",
		vs, req.Query, req.Columns, replica.View{Rows: got}, replica.View{Rows: want})
}

// wholeRead returns what a client reading req's query unlimited sees of the
// merge of vs: its rows in the query's order, and its static cells. Replicas
// purge what they answer before it is merged, so the reference merges
// purged versions too: an expired cell meets its rivals as the tombstone it
// became (CASSANDRA-14592).
func wholeRead(t *rapid.T, vs []replica.Partition, req coordinator.Request) ([]replica.ViewRow, []replica.Cell) {
	purged := make([]replica.Partition, len(vs))
	for i, v := range vs {
		purged[i] = v.Purge(now, gcBefore)
	}
	v := merge(t, purged...).Restrict(replica.Query{Slices: req.Query.Slices}).Project(req.Columns).Visible(now)
	if len(v.Rows) == 1 && v.Rows[0].Static && !req.Query.SelectsAllRows() {
		v.Rows = nil
	}
	if req.Query.Reversed {
		slices.Reverse(v.Rows)
	}
	return v.Rows, v.Static
}

// pageThrough reads every page of req and returns their rows in the query's
// order, checking each page's size, paging state and static cells.
func pageThrough(t *rapid.T, c *coordinator.Coordinator, req coordinator.Request, static []replica.Cell) []replica.ViewRow {
	var got []replica.ViewRow
	for page := 0; ; page++ {
		require.Less(t, page, 40, "paging does not end")
		res, err := c.Read(context.Background(), req)
		require.NoError(t, err)
		require.NoError(t, res.Partition.Validate(), "page %d", page)
		v := res.Visible()
		rows := 0
		for _, r := range v.Rows {
			if !r.Static {
				rows++
			}
		}
		limit := req.Query.Limit
		require.True(t, limit == 0 || rows <= limit, "page %d: %d rows, limit %d", page, rows, limit)
		require.True(t, res.PagingState == nil || (limit > 0 && rows == limit), "page %d: a paging state after %d rows, limit %d", page, rows, limit)
		require.True(t, len(v.Rows) == 0 || slices.EqualFunc(v.Static, static, replica.Cell.Equal), "page %d: static %v, want %v", page, v.Static, static)
		if req.Query.Reversed {
			slices.Reverse(v.Rows)
		}
		got = append(got, v.Rows...)
		if res.PagingState == nil {
			return got
		}
		req.PagingState = res.PagingState
	}
}

func merge(t *rapid.T, ps ...replica.Partition) replica.Partition {
	m, err := repair.Merge(ps...)
	require.NoError(t, err)
	return m
}

// pageGen draws the partitions, queries and column selections of the
// paging property.
type pageGen struct {
	// keys are the clustering keys, in byte order: with the empty key, and
	// "1\x00", the key right after "1", so that StartAfter("1") and
	// StartAt("1\x00") are one position.
	keys []string
	// uniqueTimestamps gives each write its own timestamp. At QUORUM, a
	// tie between two writes, which Merge(A, B) settled by their contents,
	// settles otherwise once one of them has expired and been purged into
	// a tombstone: A and B no longer read as Merge(A, B) does.
	uniqueTimestamps bool
	// purgeable makes about one tombstone in 16 older than gcBefore, so
	// that replicas drop it at read time. Not at QUORUM: Merge(A, B) has
	// dropped the data of B that A's tombstone shadows, so once the
	// tombstone is purged that data shows in B only, not in A and
	// Merge(A, B) (Cassandra's resurrection past gc_grace_seconds).
	purgeable bool
}

// newPageGen returns the generator for reads at QUORUM over A, B and
// Merge(A, B), or at ALL.
func newPageGen(quorum bool) pageGen {
	return pageGen{keys: []string{"", "0", "1", "1\x00", "2", "3", "4", "5", "6"}, uniqueTimestamps: quorum, purgeable: !quorum}
}

// versions draws writes to the partition k and delivers each to a
// non-empty subset of n replicas, as a write that reached only some of them.
func (g pageGen) versions(t *rapid.T, k string, n int) []replica.Partition {
	vs := make([]replica.Partition, n)
	for i := range vs {
		vs[i] = replica.NewPartition(k)
	}
	for w := range rapid.IntRange(2, 40).Draw(t, "writes") {
		p := g.write(t, k, w)
		to := rapid.IntRange(1, 1<<n-1).Draw(t, "to replicas")
		for i := range vs {
			if to&(1<<i) != 0 {
				vs[i] = merge(t, vs[i], p)
			}
		}
	}
	return vs
}

// write draws the w-th write to the partition k: what one CQL statement
// writes.
func (g pageGen) write(t *rapid.T, k string, w int) replica.Partition {
	ts := int64(rapid.IntRange(2, 9).Draw(t, "ts"))
	if g.uniqueTimestamps {
		ts = ts*64 + int64(w) // fewer than 64 writes
	}
	ck := rapid.SampledFrom(g.keys).Draw(t, "ck")
	col := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "column")
	// Rapid draws the ends of a range most often: the rare partition
	// deletion sits in its middle.
	switch kind := rapid.IntRange(0, 31).Draw(t, "write"); {
	case kind < 6: // INSERT: the row's liveness, maybe with a TTL
		l := replica.Inserted(ts)
		if rapid.Bool().Draw(t, "ttl") {
			l = replica.InsertedWithTTL(ts, 60, g.expiry(t))
		}
		return replica.NewPartition(k, replica.NewRow(ck, g.cell(t, col, ts)).WithLiveness(l))
	case kind < 12: // UPDATE of one column
		return replica.NewPartition(k, replica.NewRow(ck, g.cell(t, col, ts)))
	case kind < 15: // a collection overwritten: its elements deleted, one written
		path := rapid.SampledFrom([]string{"p", "q"}).Draw(t, "path")
		return replica.NewPartition(k, replica.NewRow(ck, replica.Live("m", "x", ts).WithPath(path)).
			WithComplexDeletion("m", replica.DeletedAt(ts-1, g.deletedAt(t))))
	case kind == 15:
		return replica.NewPartition(k).WithDeletion(replica.DeletedAt(ts, g.deletedAt(t)))
	case kind < 20: // row deletion
		return replica.NewPartition(k, replica.NewRow(ck).WithDeletion(replica.DeletedAt(ts, g.deletedAt(t))))
	case kind < 25: // range deletion
		from := rapid.IntRange(0, 2*len(g.keys)).Draw(t, "from")
		s := g.slice(from, rapid.IntRange(from+1, 2*len(g.keys)+1).Draw(t, "to"))
		if s.Start.Compare(s.End) >= 0 {
			return replica.NewPartition(k)
		}
		return replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(s.Start, s.End, replica.DeletedAt(ts, g.deletedAt(t))))
	}
	return replica.NewPartition(k).WithStatic(g.cell(t, "s", ts))
}

// cell draws a write of one column: a value, an expiring value, or its
// deletion.
func (g pageGen) cell(t *rapid.T, col string, ts int64) replica.Cell {
	switch rapid.IntRange(0, 3).Draw(t, "cell") {
	case 1:
		return replica.Expiring(col, fmt.Sprint("e", ts), ts, 60, g.expiry(t))
	case 2:
		return replica.Tombstone(col, ts, g.deletedAt(t))
	}
	return replica.Live(col, fmt.Sprint("v", ts, rapid.IntRange(0, 1).Draw(t, "value")), ts)
}

// expiry draws an expiry around now: expired, expiring now, or not yet.
func (g pageGen) expiry(t *rapid.T) int64 {
	return now + int64(rapid.IntRange(-2, 2).Draw(t, "expires"))
}

// deletedAt draws a tombstone's local deletion time: recent, or now and
// then older than gcBefore, if g allows it.
func (g pageGen) deletedAt(t *rapid.T) int64 {
	if g.purgeable && rapid.IntRange(0, 15).Draw(t, "purgeable") == 0 {
		return gcBefore - 1
	}
	return now - int64(rapid.IntRange(1, 100).Draw(t, "deleted"))
}

// slice returns the slice from position i to position j, of the 2n+2
// positions of n keys: Bottom, before and after each key, Top. Bounds of
// every kind come out, and an empty slice when the positions are one.
func (g pageGen) slice(i, j int) replica.Slice {
	s := replica.AllRows()
	if i > 0 {
		s.Start = replica.StartAt(g.keys[(i-1)/2])
		if i%2 == 0 {
			s.Start = replica.StartAfter(g.keys[(i-1)/2])
		}
	}
	if j <= 2*len(g.keys) {
		s.End = replica.EndBefore(g.keys[(j-1)/2])
		if j%2 == 0 {
			s.End = replica.EndAt(g.keys[(j-1)/2])
		}
	}
	return s
}

// query draws slices (nil; or the pieces between up to four cut positions,
// each kept or not: touching, with gaps, or none), an order and a limit.
func (g pageGen) query(t *rapid.T) replica.Query {
	q := replica.Query{Reversed: rapid.Bool().Draw(t, "reversed"), Limit: rapid.SampledFrom([]int{0, 1, 1, 2, 2, 3, 5}).Draw(t, "limit")}
	if rapid.IntRange(0, 3).Draw(t, "every row") == 0 {
		return q
	}
	cuts := []int{0, 2*len(g.keys) + 1}
	for range rapid.IntRange(0, 4).Draw(t, "cuts") {
		cuts = append(cuts, rapid.IntRange(1, 2*len(g.keys)).Draw(t, "cut"))
	}
	slices.Sort(cuts)
	q.Slices = []replica.Slice{}
	for i := 1; i < len(cuts); i++ {
		s := g.slice(cuts[i-1], cuts[i])
		if s.Start.Compare(s.End) < 0 && rapid.IntRange(0, 3).Draw(t, "keep") > 0 {
			q.Slices = append(q.Slices, s)
		}
	}
	return q
}

// columns draws a column selection: every column (nil), some, or none (an
// empty list: rows that exist by their liveness only).
func (g pageGen) columns(t *rapid.T) []string {
	if rapid.Bool().Draw(t, "every column") {
		return nil
	}
	cols := []string{}
	for _, c := range []string{"s", "a", "b", "m"} {
		if rapid.Bool().Draw(t, "select "+c) {
			cols = append(cols, c)
		}
	}
	return cols
}
