package repair_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// Vectors ported from Cassandra's DataResolverTest (apache/cassandra,
// test/unit/org/apache/cassandra/service/reads/DataResolverTest.java): each
// peer's response is a version; the resolved result is the merge's visible
// view and each peer's repair mutation is its Diff. Cassandra's tests assert
// parts of each mutation; these assert all of it. RowUpdateBuilder gives a
// row primary-key liveness at its timestamp; where the tests write at
// timestamp 0, every timestamp is one higher here, since Inserted(0) is no
// liveness.

const resolverNow = 1700000000 // DataResolverTest's nowInSec

// resolve merges the peers' versions, checks the visible result against
// want, each peer's diff against repairs (an empty partition for none),
// and that every peer converges.
func resolve(t *testing.T, want replica.View, peers []replica.Partition, repairs []replica.Partition) {
	t.Helper()
	merged := mustMerge(t, peers...)
	got := merged.Visible(resolverNow)
	if !got.Equal(want) {
		t.Fatalf("resolved\n got  %v\n want %v", got, want)
	}
	for i, peer := range peers {
		requireDiff(t, repairs[i], merged, peer)
		requireSame(t, merged, mustMerge(t, peer, repairs[i]), "peer %d after repair", i+1)
	}
}

func view(rows ...replica.ViewRow) replica.View { return replica.View{Key: "k", Rows: rows} }

func viewRow(clustering string, cells ...replica.Cell) replica.ViewRow {
	return replica.ViewRow{Clustering: clustering, Cells: cells}
}

// written is a row that RowUpdateBuilder wrote at ts: liveness and cells.
func written(clustering string, ts int64, cells ...replica.Cell) replica.Row {
	return row(clustering, cells...).WithLiveness(replica.Inserted(ts))
}

func now(ts int64) replica.Deletion { return delAt(ts, resolverNow) }

func TestResolveNewerSingleRow(t *testing.T) {
	peer1 := part("k", written("1", 1, live("c1", "v1", 1)))
	peer2 := part("k", written("1", 2, live("c1", "v2", 2)))
	resolve(t, view(viewRow("1", live("c1", "v2", 2))), []replica.Partition{peer1, peer2},
		[]replica.Partition{part("k", written("1", 2, live("c1", "v2", 2))), part("k")})
}

func TestResolveDisjointSingleRow(t *testing.T) {
	peer1 := part("k", written("1", 1, live("c1", "v1", 1)))
	peer2 := part("k", written("1", 2, live("c2", "v2", 2)))
	resolve(t, view(viewRow("1", live("c1", "v1", 1), live("c2", "v2", 2))), []replica.Partition{peer1, peer2},
		[]replica.Partition{part("k", written("1", 2, live("c2", "v2", 2))), part("k", row("1", live("c1", "v1", 1)))})
}

func TestResolveDisjointMultipleRows(t *testing.T) {
	peer1 := part("k", written("1", 1, live("c1", "v1", 1)))
	peer2 := part("k", written("2", 2, live("c2", "v2", 2)))
	resolve(t, view(viewRow("1", live("c1", "v1", 1)), viewRow("2", live("c2", "v2", 2))),
		[]replica.Partition{peer1, peer2}, []replica.Partition{peer2, peer1})
}

func TestResolveDisjointMultipleRowsWithRangeTombstones(t *testing.T) {
	rt1 := replica.NewRangeTombstone(replica.StartAt("1"), replica.EndAt("11"), now(2))
	rt2 := replica.NewRangeTombstone(replica.StartAt("3"), replica.EndAt("31"), now(2))
	peer1 := part("k").WithRangeTombstones(rt1, rt2)
	peer2 := part("k", written("0", 1, live("c1", "v0", 1)))  // not covered by any range tombstone
	peer3 := part("k", written("10", 1, live("c2", "v1", 1))) // covered by one
	peer4 := part("k", written("3", 3, live("one", "A", 3)))  // covered by one, but newer
	row0, row3 := written("0", 1, live("c1", "v0", 1)), written("3", 3, live("one", "A", 3))
	resolve(t, view(viewRow("0", live("c1", "v0", 1)), viewRow("3", live("one", "A", 3))),
		[]replica.Partition{peer1, peer2, peer3, peer4},
		[]replica.Partition{
			part("k", row0, row3),
			part("k", row3).WithRangeTombstones(rt1, rt2),
			part("k", row0, row3).WithRangeTombstones(rt1, rt2),
			part("k", row0).WithRangeTombstones(rt1, rt2),
		})
}

func TestResolveWithOneEmpty(t *testing.T) {
	peer1 := part("k", written("1", 2, live("c2", "v2", 2)))
	resolve(t, view(viewRow("1", live("c2", "v2", 2))), []replica.Partition{peer1, part("k")},
		[]replica.Partition{part("k"), peer1})
}

func TestResolveWithBothEmpty(t *testing.T) {
	resolve(t, view(), []replica.Partition{part("k"), part("k")}, []replica.Partition{part("k"), part("k")})
}

func TestResolveDeleted(t *testing.T) {
	peer1 := part("k", written("1", 1, live("one", "A", 1)))
	peer2 := part("k").WithDeletion(now(2))
	resolve(t, view(), []replica.Partition{peer1, peer2}, []replica.Partition{peer2, part("k")})
}

func TestResolveMultipleDeleted(t *testing.T) {
	// Deletes and columns with interleaved timestamps, in a scrambled order.
	peer1 := part("k").WithDeletion(now(1))
	peer2 := part("k", written("1", 2, live("one", "A", 2), live("two", "A", 2))) // after the first delete
	peer3 := part("k", written("1", 4, live("two", "B", 4)))                      // after the second
	peer4 := part("k").WithDeletion(now(3))
	rowB := written("1", 4, live("two", "B", 4))
	resolve(t, view(viewRow("1", live("two", "B", 4))), []replica.Partition{peer1, peer2, peer3, peer4},
		[]replica.Partition{
			part("k", rowB).WithDeletion(now(3)),
			part("k", rowB).WithDeletion(now(3)),
			part("k").WithDeletion(now(3)),
			part("k", rowB),
		})
}

// resolveRangeTombstonesOnBoundary merges two streams that meet on every
// combination of open and close bounds:
//
//	1: [1, 2)(3, 4](5, 6]  at ts1
//	2:    [2, 3][4, 5)     at ts2
//
// Each gets the other's ranges; the key 4, in both, goes to a stream only
// if the other's deletion there is strictly stronger.
func TestResolveRangeTombstonesOnBoundary(t *testing.T) {
	for _, ts := range [][2]int64{{1, 2}, {2, 1}, {1, 1}} { // right wins, left wins, same timestamp
		d1, d2 := now(ts[0]), now(ts[1])
		oneTwo := replica.NewRangeTombstone(replica.StartAt("1"), replica.EndBefore("2"), d1)
		threeFour := replica.NewRangeTombstone(replica.StartAfter("3"), replica.EndAt("4"), d1)
		fiveSix := replica.NewRangeTombstone(replica.StartAfter("5"), replica.EndAt("6"), d1)
		twoThree := replica.NewRangeTombstone(replica.StartAt("2"), replica.EndAt("3"), d2)
		fourFive := replica.NewRangeTombstone(replica.StartAt("4"), replica.EndBefore("5"), d2)
		peer1 := part("k").WithRangeTombstones(oneTwo, threeFour, fiveSix)
		peer2 := part("k").WithRangeTombstones(twoThree, fourFive)
		if ts[0] >= ts[1] {
			fourFive.Start = replica.StartAfter("4")
		}
		if ts[1] >= ts[0] {
			threeFour.End = replica.EndBefore("4")
		}
		merged := mustMerge(t, peer1, peer2)
		assert.True(t, merged.Visible(resolverNow).IsEmpty(), "tombstones only")
		requireDiff(t, part("k").WithRangeTombstones(twoThree, fourFive), merged, peer1)
		requireDiff(t, part("k").WithRangeTombstones(oneTwo, threeFour, fiveSix), merged, peer2)
	}
}

// testRepairRangeTombstoneBoundary (CASSANDRA-13237): a boundary of one
// stream inside the other's range, with the merged deletion equal on one or
// both sides; on both, the boundary is useless but valid, and nothing is
// repaired.
func TestRepairRangeTombstoneBoundary(t *testing.T) {
	for _, ts := range [][3]int64{{1, 0, 1}, {1, 1, 0}, {1, 1, 1}} {
		peer1 := part("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("0"), replica.EndAt("9"), now(ts[0])))
		peer2 := part("k").WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("0"), replica.EndBefore("5"), now(ts[1])),
			replica.NewRangeTombstone(replica.StartAt("5"), replica.EndAt("9"), now(ts[2])))
		want := part("k")
		switch {
		case ts[0] != ts[1]: // the first part is repaired
			want = want.WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("0"), replica.EndBefore("5"), now(ts[0])))
		case ts[0] != ts[2]: // the second part is
			want = want.WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("5"), replica.EndAt("9"), now(ts[0])))
		}
		merged := mustMerge(t, peer1, peer2)
		requireDiff(t, want, merged, peer2)
		requireDiff(t, part("k"), merged, peer1)
	}
}

// testRepairRangeTombstoneWithPartitionDeletion (CASSANDRA-13719): a
// partition deletion on one stream shadows the other's range tombstone.
func TestRepairRangeTombstoneWithPartitionDeletion(t *testing.T) {
	peer1 := part("k").WithDeletion(now(10))
	peer2 := part("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("0"), replica.EndAt("10"), now(5)))
	resolve(t, view(), []replica.Partition{peer1, peer2}, []replica.Partition{part("k"), peer1})
}

// testRepairRangeTombstoneWithPartitionDeletion2 (CASSANDRA-13719): the
// partition deletion does not shadow the range tombstone; the second
// stream gets the deletion and the pieces of the range it lacks.
func TestRepairRangeTombstoneWithPartitionDeletion2(t *testing.T) {
	peer1 := part("k").WithDeletion(now(10)).WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("0"), replica.EndAt("9"), now(11)))
	peer2 := part("k").WithRangeTombstones(
		replica.NewRangeTombstone(replica.StartAt("2"), replica.EndAt("3"), now(11)),
		replica.NewRangeTombstone(replica.StartAt("4"), replica.EndAt("5"), now(10)))
	resolve(t, view(), []replica.Partition{peer1, peer2}, []replica.Partition{part("k"),
		part("k").WithDeletion(now(10)).WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("0"), replica.EndBefore("2"), now(11)),
			replica.NewRangeTombstone(replica.StartAfter("3"), replica.EndAt("9"), now(11)))})
}

// mapCell is a cell of map m, key k, value v, both 4-byte integers.
func mapCell(k, v int32, ts int64) replica.Cell {
	return live("m", be32(v), ts).WithPath(be32(k))
}

func be32(i int32) string { return string(binary.BigEndian.AppendUint32(nil, uint32(i))) }

// collection is the row of a table without clustering columns holding a map
// m deleted at cd (a collection is overwritten by deleting it just before).
func collection(cd int64, cells ...replica.Cell) replica.Row {
	return row("", cells...).WithComplexDeletion("m", now(cd))
}

func TestResolveComplexDelete(t *testing.T) {
	peer1 := part("k", collection(99, mapCell(0, 0, 100)))
	peer2 := part("k", collection(199, mapCell(1, 1, 200)))
	resolve(t, view(viewRow("", mapCell(1, 1, 200))), []replica.Partition{peer1, peer2},
		[]replica.Partition{peer2, part("k")})
}

func TestResolveDeletedCollection(t *testing.T) {
	peer1 := part("k", collection(99, mapCell(0, 0, 100)))
	peer2 := part("k", collection(199))
	resolve(t, view(), []replica.Partition{peer1, peer2}, []replica.Partition{peer2, part("k")})
}

func TestResolveNewCollection(t *testing.T) {
	peer1 := part("k", collection(99, mapCell(0, 0, 100)))
	resolve(t, view(viewRow("", mapCell(0, 0, 100))), []replica.Partition{peer1, part("k")},
		[]replica.Partition{part("k"), peer1})
}

func TestResolveNewCollectionOverwritingDeleted(t *testing.T) {
	peer1 := part("k", collection(99))
	peer2 := part("k", collection(199, mapCell(1, 1, 200)))
	resolve(t, view(viewRow("", mapCell(1, 1, 200))), []replica.Partition{peer1, peer2},
		[]replica.Partition{peer2, part("k")})
}
