package repair_test

import (
	"testing"

	"github.com/readpath/readpath/replica"
)

// Vectors ported from Cassandra's RowsTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/rows/RowsTest.java): a table with a
// clustering column c, a column v and a map m. Rows.merge becomes Merge of
// one-row partitions; Rows.diff, which reports for each input what differs
// from the merged row, becomes Diff of each input, which holds the part of
// that report where the merged row wins.

const rowsNow = 1700000000

func secondToTs(now int64) int64 { return now * 1000000 }

// rowsTestRow is createBuilder: a row written at now, with v and one map
// entry if given (the map overwritten, so deleted just before).
func rowsTestRow(now int64, v *int32, mKey, mVal *int32) replica.Row {
	ts := secondToTs(now)
	r := row("1").WithLiveness(replica.Inserted(ts))
	if v != nil {
		r.Cells = append(r.Cells, live("v", be32(*v), ts))
	}
	if mKey != nil && mVal != nil {
		r = r.WithComplexDeletion("m", delAt(ts-1, now))
		r.Cells = append(r.Cells, live("m", be32(*mVal), ts).WithPath(be32(*mKey)))
	}
	r.Cells = row("1", r.Cells...).Cells
	return r
}

func int32p(i int32) *int32 { return &i }

func TestRowsMerge(t *testing.T) {
	now1, now2 := int64(rowsNow), int64(rowsNow+1)
	ts2 := secondToTs(now2)
	existing := rowsTestRow(now1, int32p(1), int32p(1), int32p(1))
	update := rowsTestRow(now2, nil, nil, nil).WithComplexDeletion("m", delAt(ts2-1, now2))
	update.Cells = row("1", live("v", be32(2), ts2), mapCell(1, 2, ts2)).Cells
	want := row("1", live("v", be32(2), ts2), mapCell(1, 2, ts2)).
		WithLiveness(replica.Inserted(ts2)).WithComplexDeletion("m", delAt(ts2-1, now2))
	requireSame(t, part("k", want), mustMerge(t, part("k", existing), part("k", update)), "merge")
}

func TestRowsMergeComplexDeletionSupersededByRowDeletion(t *testing.T) {
	now1, now2, now3 := int64(rowsNow), int64(rowsNow+1), int64(rowsNow+2)
	existing := rowsTestRow(now1, nil, nil, nil)
	update := rowsTestRow(now2, nil, int32p(1), int32p(1)).WithDeletion(delAt(secondToTs(now3), now3))
	want := row("1").WithDeletion(delAt(secondToTs(now3), now3))
	requireSame(t, part("k", want), mustMerge(t, part("k", existing), part("k", update)), "merge")
}

// mergeRowDeletionSupercedesLiveness: a row deletion that deletes the
// liveness leaves the merged row without one.
func TestRowsMergeRowDeletionSupersedesLiveness(t *testing.T) {
	now1, now2, now3 := int64(rowsNow), int64(rowsNow+1), int64(rowsNow+2)
	existing := rowsTestRow(now1, nil, nil, nil)
	update := rowsTestRow(now2, int32p(1), int32p(1), int32p(1)).WithDeletion(delAt(secondToTs(now3), now3))
	want := row("1").WithDeletion(delAt(secondToTs(now3), now3))
	requireSame(t, part("k", want), mustMerge(t, part("k", existing), part("k", update)), "merge")
}

func TestRowsDiff(t *testing.T) {
	now1, now2 := int64(rowsNow), int64(rowsNow+1)
	ts1, ts2 := secondToTs(now1), secondToTs(now2)
	r1v, r1m1, r1m2 := live("v", be32(1), ts1), mapCell(1, 1, ts1), mapCell(2, 2, ts1)
	r1 := row("1", r1v, r1m1, r1m2).WithLiveness(replica.Inserted(ts1)).WithComplexDeletion("m", delAt(ts1-1, now1))
	r2v, r2m2, r2m3, r2m4 := live("v", be32(2), ts2), mapCell(2, 1, ts2), mapCell(3, 2, ts2), mapCell(4, 3, ts2)
	r2 := row("1", r2v, r2m2, r2m3, r2m4).WithLiveness(replica.Inserted(ts2)).WithDeletion(delAt(ts1-2, now2))

	merged := mustMerge(t, part("k", r1), part("k", r2))
	requireSame(t, part("k", row("1", r2v, r1m1, r2m2, r2m3, r2m4).WithLiveness(replica.Inserted(ts2)).
		WithDeletion(delAt(ts1-2, now2)).WithComplexDeletion("m", delAt(ts1-1, now1))), merged, "merge")
	// Input 0 lacks the newer liveness, the row deletion and r2's cells.
	requireDiff(t, part("k", row("1", r2v, r2m2, r2m3, r2m4).WithLiveness(replica.Inserted(ts2)).WithDeletion(delAt(ts1-2, now2))), merged, part("k", r1))
	// Input 1 lacks the complex deletion and m[1].
	requireDiff(t, part("k", row("1", r1m1).WithComplexDeletion("m", delAt(ts1-1, now1))), merged, part("k", r2))
}

// diffEmptyInput: against a row holding only its liveness, the diff is the
// whole of the other row, except an older liveness.
func TestRowsDiffEmptyInput(t *testing.T) {
	now1, now2 := int64(rowsNow), int64(rowsNow+1)
	ts1, ts2 := secondToTs(now1), secondToTs(now2)
	r1 := row("1").WithLiveness(replica.Inserted(ts1))
	r2 := row("1", live("v", be32(2), ts2), mapCell(2, 1, ts2), mapCell(3, 2, ts2), mapCell(4, 3, ts2)).
		WithLiveness(replica.Inserted(ts2)).WithComplexDeletion("m", delAt(ts2-1, now2)).WithDeletion(delAt(ts1-1, now2))
	requireDiff(t, part("k", r2), part("k", r2), part("k", r1))
	requireDiff(t, part("k"), part("k", r2), part("k", r2))
}

// The statements of Cassandra's StaticColumnsTest.testStaticColumns
// (apache/cassandra, test/unit/org/apache/cassandra/cql3/validation/
// entities/StaticColumnsTest.java), on a table (k, p, s static, v), each
// reaching only some of two replicas: the read of the merge shows what the
// test expects after each, and both replicas converge.
func TestStaticColumnsAcrossReplicas(t *testing.T) {
	var replicas [2]replica.Partition
	replicas[0], replicas[1] = part("k"), part("k")
	statements := []struct {
		name string
		to   []int
		w    replica.Partition
		want replica.View
	}{
		{"INSERT INTO t (k, s) VALUES (0, 42)", []int{0},
			part("k").WithStatic(live("s", "42", 1)),
			replica.View{Key: "k", Static: []replica.Cell{live("s", "42", 1)}, Rows: []replica.ViewRow{{Static: true}}}},
		{"INSERT INTO t (k, p, s, v) VALUES (0, 0, 12, 0)", []int{1},
			part("k", written("0", 2, live("v", "0", 2))).WithStatic(live("s", "12", 2)),
			replica.View{Key: "k", Static: []replica.Cell{live("s", "12", 2)}, Rows: []replica.ViewRow{viewRow("0", live("v", "0", 2))}}},
		{"INSERT INTO t (k, p, s, v) VALUES (0, 1, 24, 1)", []int{0},
			part("k", written("1", 3, live("v", "1", 3))).WithStatic(live("s", "24", 3)),
			replica.View{Key: "k", Static: []replica.Cell{live("s", "24", 3)},
				Rows: []replica.ViewRow{viewRow("0", live("v", "0", 2)), viewRow("1", live("v", "1", 3))}}},
		{"DELETE FROM t WHERE k = 0 AND p = 0: the static row stays", []int{1},
			part("k", row("0").WithDeletion(delAt(4, 100))),
			replica.View{Key: "k", Static: []replica.Cell{live("s", "24", 3)}, Rows: []replica.ViewRow{viewRow("1", live("v", "1", 3))}}},
		{"DELETE s FROM t WHERE k = 0", []int{0},
			part("k").WithStatic(tomb("s", 5, 100)),
			replica.View{Key: "k", Rows: []replica.ViewRow{viewRow("1", live("v", "1", 3))}}},
		{"INSERT INTO t (k, s) VALUES (0, 7)", []int{1},
			part("k").WithStatic(live("s", "7", 6)),
			replica.View{Key: "k", Static: []replica.Cell{live("s", "7", 6)}, Rows: []replica.ViewRow{viewRow("1", live("v", "1", 3))}}},
		{"DELETE FROM t WHERE k = 0: a partition deletion removes the static row too", []int{0},
			part("k").WithDeletion(delAt(7, 100)), replica.View{Key: "k"}},
	}
	for _, st := range statements {
		for _, i := range st.to {
			replicas[i] = mustMerge(t, replicas[i], st.w)
		}
		merged := mustMerge(t, replicas[:]...)
		if got := merged.Visible(100); !got.Equal(st.want) {
			t.Fatalf("after %s:\n got  %v\n want %v", st.name, got, st.want)
		}
		for _, r := range replicas {
			d, _ := repairDiff(merged, r)
			requireSame(t, merged, mustMerge(t, r, d), "after %s, a replica repaired", st.name)
		}
	}
}
