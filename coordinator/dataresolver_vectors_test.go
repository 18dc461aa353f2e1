package coordinator_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Vectors ported from Cassandra's DataResolverTest (apache/cassandra,
// test/unit/org/apache/cassandra/service/reads/DataResolverTest.java), run
// as reads at ALL through the coordinator: each peer is a fake replica
// seeded with that peer's response, and the mutation the coordinator sends
// it is what Cassandra's TestableReadRepair records for it. package repair
// checks the same vectors on Merge and Diff (repair/resolver_test.go);
// these check that a read sends exactly those, to the right replicas.
// RowUpdateBuilder gives a row liveness at its timestamp; Cassandra's
// timestamps are one higher here, as Inserted(0) is no liveness.

const drNow = 1700000000 // DataResolverTest's nowInSec

type drVector struct {
	peers   []replica.Partition
	want    replica.View
	repairs []replica.Partition // what each peer is sent; empty: nothing
}

// runDRVector reads drVector's key at ALL from one fake replica per peer
// and checks the result, the mutation each replica got, and that all of
// them hold the data of the merge afterwards.
func runDRVector(t *testing.T, v drVector) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		n := len(v.peers)
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: n, Nodes: n}},
			Replication: consistency.Simple(n),
			Seed:        1,
			Options:     []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
		})
		require.NoError(t, err)
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("dc1-r%d-n%d", i+1, i+1)
			require.NoError(t, cl.SeedOn(tbl, v.peers[i], ids[i]))
		}
		require.NoError(t, cl.Pin(tbl, key, ids...))
		var mu sync.Mutex
		sent := map[string][]replica.Partition{}
		p := policy(t, "NEVER")
		e := newEnvOn(t, cl, coordinator.Config{DefaultTable: p, Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) {
			mu.Lock()
			defer mu.Unlock()
			sent[ev.To.ID] = append(sent[ev.To.ID], ev.Mutation)
		}}})

		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All, NowInSec: drNow})
		require.NoError(t, err)
		settle()
		if got := res.Visible(); !got.Equal(v.want) {
			t.Fatalf("resolved\n got  %v\n want %v", got, v.want)
		}
		merged, err := repair.Merge(v.peers...)
		require.NoError(t, err)
		mu.Lock()
		defer mu.Unlock()
		for i, id := range ids {
			if v.repairs[i].IsEmpty() {
				assert.Empty(t, sent[id], "peer %d is sent nothing", i+1)
			} else if assert.Len(t, sent[id], 1, "peer %d is sent one mutation", i+1) && !sent[id][0].Equal(v.repairs[i]) {
				t.Errorf("peer %d is sent\n got  %v\n want %v", i+1, sent[id][0], v.repairs[i])
			}
			held, _ := e.replica(id).Partition(tbl, key)
			canon, err := repair.Merge(held) // a replica may keep a range split in two; it answers it joined
			require.NoError(t, err)
			assert.True(t, canon.Equal(merged), "peer %d holds the merge after the read: %v", i+1, held)
		}
	})
}

func drWritten(clustering string, ts int64, cells ...replica.Cell) replica.Row {
	return replica.NewRow(clustering, cells...).WithLiveness(replica.Inserted(ts))
}

func drDel(ts int64) replica.Deletion { return replica.DeletedAt(ts, drNow) }

func drPart(rows ...replica.Row) replica.Partition { return replica.NewPartition(key, rows...) }

func drView(rows ...replica.ViewRow) replica.View { return replica.View{Key: key, Rows: rows} }

func drViewRow(clustering string, cells ...replica.Cell) replica.ViewRow {
	return replica.ViewRow{Clustering: clustering, Cells: cells}
}

func drRT(start replica.Bound, end replica.Bound, ts int64) replica.RangeTombstone {
	return replica.NewRangeTombstone(start, end, drDel(ts))
}

// testResolveNewerSingleRow
func TestDataResolverNewerSingleRow(t *testing.T) {
	newer := drPart(drWritten("1", 2, replica.Live("c1", "v2", 2)))
	runDRVector(t, drVector{
		peers:   []replica.Partition{drPart(drWritten("1", 1, replica.Live("c1", "v1", 1))), newer},
		want:    drView(drViewRow("1", replica.Live("c1", "v2", 2))),
		repairs: []replica.Partition{newer, drPart()},
	})
}

// testResolveDisjointSingleRow
func TestDataResolverDisjointSingleRow(t *testing.T) {
	runDRVector(t, drVector{
		peers: []replica.Partition{
			drPart(drWritten("1", 1, replica.Live("c1", "v1", 1))),
			drPart(drWritten("1", 2, replica.Live("c2", "v2", 2))),
		},
		want: drView(drViewRow("1", replica.Live("c1", "v1", 1), replica.Live("c2", "v2", 2))),
		repairs: []replica.Partition{
			drPart(drWritten("1", 2, replica.Live("c2", "v2", 2))),
			drPart(replica.NewRow("1", replica.Live("c1", "v1", 1))),
		},
	})
}

// testResolveDisjointMultipleRows
func TestDataResolverDisjointMultipleRows(t *testing.T) {
	peer1 := drPart(drWritten("1", 1, replica.Live("c1", "v1", 1)))
	peer2 := drPart(drWritten("2", 2, replica.Live("c2", "v2", 2)))
	runDRVector(t, drVector{
		peers:   []replica.Partition{peer1, peer2},
		want:    drView(drViewRow("1", replica.Live("c1", "v1", 1)), drViewRow("2", replica.Live("c2", "v2", 2))),
		repairs: []replica.Partition{peer2, peer1},
	})
}

// testResolveDisjointMultipleRowsWithRangeTombstones, over four replicas.
func TestDataResolverDisjointMultipleRowsWithRangeTombstones(t *testing.T) {
	rt1 := drRT(replica.StartAt("1"), replica.EndAt("11"), 2)
	rt2 := drRT(replica.StartAt("3"), replica.EndAt("31"), 2)
	row0 := drWritten("0", 1, replica.Live("c1", "v0", 1))
	row3 := drWritten("3", 3, replica.Live("one", "A", 3))
	runDRVector(t, drVector{
		peers: []replica.Partition{
			drPart().WithRangeTombstones(rt1, rt2),
			drPart(row0),
			drPart(drWritten("10", 1, replica.Live("c2", "v1", 1))), // covered by rt1
			drPart(row3), // covered by rt2, but newer
		},
		want: drView(drViewRow("0", replica.Live("c1", "v0", 1)), drViewRow("3", replica.Live("one", "A", 3))),
		repairs: []replica.Partition{
			drPart(row0, row3),
			drPart(row3).WithRangeTombstones(rt1, rt2),
			drPart(row0, row3).WithRangeTombstones(rt1, rt2),
			drPart(row0).WithRangeTombstones(rt1, rt2),
		},
	})
}

// testResolveWithOneEmpty
func TestDataResolverWithOneEmpty(t *testing.T) {
	peer1 := drPart(drWritten("1", 2, replica.Live("c2", "v2", 2)))
	runDRVector(t, drVector{
		peers:   []replica.Partition{peer1, drPart()},
		want:    drView(drViewRow("1", replica.Live("c2", "v2", 2))),
		repairs: []replica.Partition{drPart(), peer1},
	})
}

// testResolveWithBothEmpty
func TestDataResolverWithBothEmpty(t *testing.T) {
	runDRVector(t, drVector{
		peers:   []replica.Partition{drPart(), drPart()},
		want:    drView(),
		repairs: []replica.Partition{drPart(), drPart()},
	})
}

// testResolveDeleted
func TestDataResolverDeleted(t *testing.T) {
	deleted := drPart().WithDeletion(drDel(2))
	runDRVector(t, drVector{
		peers:   []replica.Partition{drPart(drWritten("1", 1, replica.Live("one", "A", 1))), deleted},
		want:    drView(),
		repairs: []replica.Partition{deleted, drPart()},
	})
}

// testResolveMultipleDeleted, over four replicas.
func TestDataResolverMultipleDeleted(t *testing.T) {
	rowB := drWritten("1", 4, replica.Live("two", "B", 4))
	runDRVector(t, drVector{
		peers: []replica.Partition{
			drPart().WithDeletion(drDel(1)),
			drPart(drWritten("1", 2, replica.Live("one", "A", 2), replica.Live("two", "A", 2))),
			drPart(rowB),
			drPart().WithDeletion(drDel(3)),
		},
		want: drView(drViewRow("1", replica.Live("two", "B", 4))),
		repairs: []replica.Partition{
			drPart(rowB).WithDeletion(drDel(3)),
			drPart(rowB).WithDeletion(drDel(3)),
			drPart().WithDeletion(drDel(3)),
			drPart(rowB),
		},
	})
}

// testResolveRangeTombstonesOnBoundaryRightWins, LeftWins and
// SameTimestamp: [1, 2)(3, 4](5, 6] against [2, 3][4, 5); the key 4, in
// both, goes to a peer only if the other's deletion is strictly newer.
func TestDataResolverRangeTombstonesOnBoundary(t *testing.T) {
	for _, ts := range [][2]int64{{1, 2}, {2, 1}, {1, 1}} {
		t.Run(fmt.Sprint(ts), func(t *testing.T) {
			oneTwo := drRT(replica.StartAt("1"), replica.EndBefore("2"), ts[0])
			threeFour := drRT(replica.StartAfter("3"), replica.EndAt("4"), ts[0])
			fiveSix := drRT(replica.StartAfter("5"), replica.EndAt("6"), ts[0])
			twoThree := drRT(replica.StartAt("2"), replica.EndAt("3"), ts[1])
			fourFive := drRT(replica.StartAt("4"), replica.EndBefore("5"), ts[1])
			peers := []replica.Partition{
				drPart().WithRangeTombstones(oneTwo, threeFour, fiveSix),
				drPart().WithRangeTombstones(twoThree, fourFive),
			}
			if ts[0] >= ts[1] {
				fourFive.Start = replica.StartAfter("4")
			}
			if ts[1] >= ts[0] {
				threeFour.End = replica.EndBefore("4")
			}
			runDRVector(t, drVector{peers: peers, want: drView(), repairs: []replica.Partition{
				drPart().WithRangeTombstones(twoThree, fourFive),
				drPart().WithRangeTombstones(oneTwo, threeFour, fiveSix),
			}})
		})
	}
}

// testRepairRangeTombstoneBoundary (CASSANDRA-13237): peer 2 has a
// boundary at 5 inside peer 1's [0, 9].
func TestDataResolverRepairRangeTombstoneBoundary(t *testing.T) {
	for _, ts := range [][3]int64{{1, 0, 1}, {1, 1, 0}, {1, 1, 1}} {
		t.Run(fmt.Sprint(ts), func(t *testing.T) {
			want := drPart()
			switch {
			case ts[0] != ts[1]:
				want = want.WithRangeTombstones(drRT(replica.StartAt("0"), replica.EndBefore("5"), ts[0]))
			case ts[0] != ts[2]:
				want = want.WithRangeTombstones(drRT(replica.StartAt("5"), replica.EndAt("9"), ts[0]))
			}
			runDRVector(t, drVector{
				peers: []replica.Partition{
					drPart().WithRangeTombstones(drRT(replica.StartAt("0"), replica.EndAt("9"), ts[0])),
					drPart().WithRangeTombstones(
						drRT(replica.StartAt("0"), replica.EndBefore("5"), ts[1]),
						drRT(replica.StartAt("5"), replica.EndAt("9"), ts[2])),
				},
				want:    drView(),
				repairs: []replica.Partition{drPart(), want},
			})
		})
	}
}

// testRepairRangeTombstoneWithPartitionDeletion (CASSANDRA-13719)
func TestDataResolverRepairRangeTombstoneWithPartitionDeletion(t *testing.T) {
	deletion := drPart().WithDeletion(drDel(10))
	runDRVector(t, drVector{
		peers:   []replica.Partition{deletion, drPart().WithRangeTombstones(drRT(replica.StartAt("0"), replica.EndAt("10"), 5))},
		want:    drView(),
		repairs: []replica.Partition{drPart(), deletion},
	})
}

// testRepairRangeTombstoneWithPartitionDeletion2 (CASSANDRA-13719)
func TestDataResolverRepairRangeTombstoneWithPartitionDeletion2(t *testing.T) {
	runDRVector(t, drVector{
		peers: []replica.Partition{
			drPart().WithDeletion(drDel(10)).WithRangeTombstones(drRT(replica.StartAt("0"), replica.EndAt("9"), 11)),
			drPart().WithRangeTombstones(drRT(replica.StartAt("2"), replica.EndAt("3"), 11), drRT(replica.StartAt("4"), replica.EndAt("5"), 10)),
		},
		want: drView(),
		repairs: []replica.Partition{drPart(), drPart().WithDeletion(drDel(10)).WithRangeTombstones(
			drRT(replica.StartAt("0"), replica.EndBefore("2"), 11),
			drRT(replica.StartAfter("3"), replica.EndAt("9"), 11))},
	})
}

// drMapCell is a cell of map m, key k, value v, both 4-byte integers.
func drMapCell(k, v int32, ts int64) replica.Cell {
	be := func(i int32) string { return string(binary.BigEndian.AppendUint32(nil, uint32(i))) }
	return replica.Live("m", be(v), ts).WithPath(be(k))
}

// drCollection is the row of a table without clustering columns holding a
// map m deleted at cd (a collection is overwritten by deleting it first).
func drCollection(cd int64, cells ...replica.Cell) replica.Row {
	return replica.NewRow("", cells...).WithComplexDeletion("m", drDel(cd))
}

// testResolveComplexDelete, testResolveDeletedCollection,
// testResolveNewCollection, testResolveNewCollectionOverwritingDeleted
func TestDataResolverCollections(t *testing.T) {
	newer := drPart(drCollection(199, drMapCell(1, 1, 200)))
	older := drPart(drCollection(99, drMapCell(0, 0, 100)))
	cleared := drPart(drCollection(199))
	for name, v := range map[string]drVector{
		"ComplexDelete": {peers: []replica.Partition{older, newer},
			want: drView(drViewRow("", drMapCell(1, 1, 200))), repairs: []replica.Partition{newer, drPart()}},
		"DeletedCollection": {peers: []replica.Partition{older, cleared},
			want: drView(), repairs: []replica.Partition{cleared, drPart()}},
		"NewCollection": {peers: []replica.Partition{older, drPart()},
			want: drView(drViewRow("", drMapCell(0, 0, 100))), repairs: []replica.Partition{drPart(), older}},
		"NewCollectionOverwritingDeleted": {peers: []replica.Partition{drPart(drCollection(99)), newer},
			want: drView(drViewRow("", drMapCell(1, 1, 200))), repairs: []replica.Partition{newer, drPart()}},
	} {
		t.Run(name, func(t *testing.T) { runDRVector(t, v) })
	}
}
