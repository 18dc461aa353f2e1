package repair_test

import (
	"testing"

	"github.com/readpath/readpath/replica"
)

// Vectors ported from Cassandra's RowsMergingTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/rows/RowsMergingTest.java): each CQL
// statement on row ck = 1 is the mutation it writes; merged in every
// order, they must give the row the test selects. Columns a to f hold
// ints, s is a set<text>; a value is its decimal string.

const rmNow = 1700000000

// rmInsert is INSERT ... USING TIMESTAMP ts: liveness and cells.
func rmInsert(ts int64, cells ...replica.Cell) replica.Partition {
	return part("k", row("1", cells...).WithLiveness(replica.Inserted(ts)))
}

// rmUpdate is UPDATE ... USING TIMESTAMP ts: cells only.
func rmUpdate(cells ...replica.Cell) replica.Partition { return part("k", row("1", cells...)) }

func rmDelete(ts int64) replica.Partition {
	return part("k", row("1").WithDeletion(delAt(ts, rmNow)))
}

// rmCols is columns of one value written at ts.
func rmCols(v string, ts int64, cols ...string) []replica.Cell {
	out := make([]replica.Cell, len(cols))
	for i, c := range cols {
		out[i] = live(c, v, ts)
	}
	return out
}

// rmSet writes set s as a whole at ts: deleted just before, then elems.
func rmSet(r replica.Row, ts int64, elems ...string) replica.Row {
	for _, e := range elems {
		r.Cells = append(r.Cells, live("s", "", ts).WithPath(e))
	}
	return row(r.Clustering, r.Cells...).WithLiveness(r.Liveness).WithComplexDeletion("s", delAt(ts-1, rmNow))
}

// rmPermutations calls f with every order of vs (Heap's algorithm, as
// MergeChecker.checkAllPermutations).
func rmPermutations(vs []replica.Partition, f func([]replica.Partition)) {
	var perm func(n int)
	perm = func(n int) {
		if n <= 1 {
			f(vs)
			return
		}
		for i := 0; i < n-1; i++ {
			perm(n - 1)
			if n%2 == 0 {
				vs[i], vs[n-1] = vs[n-1], vs[i]
			} else {
				vs[0], vs[n-1] = vs[n-1], vs[0]
			}
		}
		perm(n - 1)
	}
	perm(len(vs))
}

// checkRowsMerging merges statements pairwise in every order, as a node
// applies them one by one, and all at once, as a read of replicas that
// each got one: both must show want (nil: no row).
func checkRowsMerging(t *testing.T, want *replica.ViewRow, statements ...replica.Partition) {
	t.Helper()
	wantView := replica.View{Key: "k"}
	if want != nil {
		wantView.Rows = []replica.ViewRow{*want}
	}
	all := mustMerge(t, statements...)
	if got := all.Visible(rmNow); !got.Equal(wantView) {
		t.Fatalf("merged at once:\n got  %v\n want %v", got, wantView)
	}
	rmPermutations(cloneAll(statements), func(order []replica.Partition) {
		acc := order[0]
		for _, s := range order[1:] {
			acc = mustMerge(t, acc, s)
		}
		requireSame(t, all, acc, "applied in the order %v", order)
	})
}

func TestRowsMergingInsertion(t *testing.T) {
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1", Cells: row("1", append(rmCols("2", 1002, "a", "b", "c", "d"), rmCols("1", 1001, "e", "f")...)...).Cells},
		rmInsert(1001, rmCols("1", 1001, "a", "b", "c", "d", "e", "f")...),
		rmInsert(1002, rmCols("2", 1002, "a", "b", "c", "d")...))
}

func TestRowsMergingRowDeletions(t *testing.T) {
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1", Cells: rmCols("2", 1003, "a")},
		rmInsert(1001, rmCols("1", 1001, "a", "b", "c", "d", "e", "f")...),
		rmDelete(1002),
		rmInsert(1003, rmCols("2", 1003, "a")...))
}

func TestRowsMergingRowDeletionWithUpdate(t *testing.T) {
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1", Cells: rmCols("2", 1003, "a")},
		rmInsert(1001, rmCols("1", 1001, "a", "b", "c", "d", "e", "f")...),
		rmDelete(1002),
		rmUpdate(rmCols("2", 1003, "a")...))
}

func TestRowsMergingRowDeletionWithOnlyUpdates(t *testing.T) {
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1", Cells: rmCols("2", 1003, "a")},
		rmUpdate(rmCols("1", 1001, "a", "b", "c", "d", "e", "f")...),
		rmDelete(1002),
		rmUpdate(rmCols("2", 1003, "a")...))
}

func TestRowsMergingRowWithMultipleDeletions(t *testing.T) {
	checkRowsMerging(t, nil,
		rmInsert(1001, rmCols("1", 1001, "a", "b", "c", "d", "e", "f")...),
		rmDelete(1002),
		rmUpdate(rmCols("2", 1003, "a")...),
		rmDelete(1004))
}

func TestRowsMergingRowWithComplexCollectionOverride(t *testing.T) {
	mn := rmSet(row("1"), 1002, "m", "n")
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1", Cells: mn.Cells},
		part("k", rmSet(row("1").WithLiveness(replica.Inserted(1001)), 1001, "a", "b", "c")),
		part("k", mn))
}

func TestRowsMergingRowWithDeletionAndComplexCollection(t *testing.T) {
	checkRowsMerging(t, nil,
		part("k", rmSet(row("1").WithLiveness(replica.Inserted(1001)), 1001, "a", "b", "c")),
		rmDelete(1002))
}

func TestRowsMergingRowWithDeletionAndComplexCollectionOverride(t *testing.T) {
	mn := rmSet(row("1"), 1003, "m", "n")
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1", Cells: mn.Cells},
		part("k", rmSet(row("1").WithLiveness(replica.Inserted(1001)), 1001, "a", "b", "c")),
		rmDelete(1002),
		part("k", mn))
}

// testRowWithComplexDeletionAfterRowDeletion: the row stays, by its
// liveness, with s deleted.
func TestRowsMergingRowWithComplexDeletionAfterRowDeletion(t *testing.T) {
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1"},
		rmDelete(1001),
		part("k", rmSet(row("1").WithLiveness(replica.Inserted(1002)), 1002, "a", "b", "c")),
		part("k", row("1").WithComplexDeletion("s", delAt(1003, rmNow))))
}

// testRowDeletionsWithBatchWithBatchTimestamp: one mutation writes the
// row and deletes it at the same timestamp; the deletion wins.
func TestRowsMergingRowDeletionsWithBatchWithBatchTimestamp(t *testing.T) {
	batch := rmInsert(1001, rmCols("1", 1001, "a", "b", "c", "d", "e", "f")...)
	batch.Rows[0] = batch.Rows[0].WithDeletion(delAt(1001, rmNow))
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1", Cells: rmCols("2", 1002, "a")},
		batch,
		rmInsert(1002, rmCols("2", 1002, "a")...))
}

func TestRowsMergingRowDeletionsWithBatchWithTimestampPerOperation(t *testing.T) {
	batch := rmInsert(1001, rmCols("1", 1001, "a", "b", "c", "d", "e", "f")...)
	batch.Rows[0] = batch.Rows[0].WithDeletion(delAt(1002, rmNow))
	checkRowsMerging(t, &replica.ViewRow{Clustering: "1", Cells: rmCols("2", 1003, "a")},
		batch,
		rmInsert(1003, rmCols("2", 1003, "a")...))
}
