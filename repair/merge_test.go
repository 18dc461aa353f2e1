package repair_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

var (
	part  = replica.NewPartition
	row   = replica.NewRow
	live  = replica.Live
	tomb  = replica.Tombstone
	delAt = replica.DeletedAt
)

func TestMergeUnionsDisjointColumns(t *testing.T) {
	a := part("k", row("r", live("x", "1", 1)))
	b := part("k", row("r", live("y", "2", 1)))
	merged := mustMerge(t, a, b)
	requireSame(t, part("k", row("r", live("x", "1", 1), live("y", "2", 1))), merged, "merge")
	requireDiff(t, b, merged, a)
	requireDiff(t, a, merged, b)
}

func TestMergeKeepsTheWinningCellOfEachColumn(t *testing.T) {
	a := part("k", row("r", live("x", "old", 1), live("y", "new", 5)))
	b := part("k", row("r", live("x", "new", 2), live("y", "old", 4)))
	merged := mustMerge(t, a, b)
	requireSame(t, part("k", row("r", live("x", "new", 2), live("y", "new", 5))), merged, "merge")
	requireDiff(t, part("k", row("r", live("x", "new", 2))), merged, a)
	requireDiff(t, part("k", row("r", live("y", "new", 5))), merged, b)
}

func TestPartitionDeletionRemovesOlderRows(t *testing.T) {
	stale := part("k", row("r", live("x", "v", 0)))
	deleted := part("k").WithDeletion(delAt(1, 100))
	merged := mustMerge(t, stale, deleted)
	requireSame(t, deleted, merged, "merge")
	requireDiff(t, deleted, merged, stale)
	requireDiff(t, part("k"), merged, deleted)
}

func TestDeletionAtTheSameTimestampRemovesTheWrite(t *testing.T) {
	merged := mustMerge(t, part("k", row("r", live("x", "v", 1))), part("k").WithDeletion(delAt(1, 100)))
	requireSame(t, part("k").WithDeletion(delAt(1, 100)), merged, "merge")
}

func TestLaterWriteSurvivesOlderPartitionDeletion(t *testing.T) {
	written := part("k", row("r", live("x", "v", 2)))
	deleted := part("k", row("r", live("x", "gone", 1))).WithDeletion(delAt(1, 100))
	merged := mustMerge(t, written, deleted)
	requireSame(t, part("k", row("r", live("x", "v", 2))).WithDeletion(delAt(1, 100)), merged, "merge")
	requireDiff(t, part("k").WithDeletion(delAt(1, 100)), merged, written)
	requireDiff(t, part("k", row("r", live("x", "v", 2))), merged, deleted)
}

func TestStrongerPartitionDeletionSupersedes(t *testing.T) {
	tests := []struct{ weak, strong replica.Deletion }{
		{delAt(1, 9), delAt(2, 0)},         // higher timestamp
		{delAt(2, 5), delAt(2, 6)},         // same timestamp, later local deletion time
		{replica.Deletion{}, delAt(-5, 0)}, // any deletion beats none
	}
	for _, tt := range tests {
		weak, strong := part("k").WithDeletion(tt.weak), part("k").WithDeletion(tt.strong)
		requireSame(t, strong, mustMerge(t, weak, strong), "weak, strong")
		requireSame(t, strong, mustMerge(t, strong, weak), "strong, weak")
		requireDiff(t, strong, strong, weak)
		requireDiff(t, part("k"), strong, strong)
	}
}

func TestRowDeletionRemovesCellsAtOrBeforeIt(t *testing.T) {
	a := part("k", row("r", live("x", "old", 4), live("y", "same", 5), live("z", "new", 6)))
	b := part("k", row("r").WithDeletion(delAt(5, 100)))
	merged := mustMerge(t, a, b)
	want := part("k", row("r", live("z", "new", 6)).WithDeletion(delAt(5, 100)))
	requireSame(t, want, merged, "merge")
	requireDiff(t, part("k", row("r").WithDeletion(delAt(5, 100))), merged, a)
	requireDiff(t, part("k", row("r", live("z", "new", 6))), merged, b)
}

func TestRowDeletionsSupersede(t *testing.T) {
	a := part("k", row("r").WithDeletion(delAt(3, 1)), row("s").WithDeletion(delAt(7, 2)))
	b := part("k", row("r").WithDeletion(delAt(3, 2)), row("s").WithDeletion(delAt(6, 9)))
	merged := mustMerge(t, a, b)
	requireSame(t, part("k", row("r").WithDeletion(delAt(3, 2)), row("s").WithDeletion(delAt(7, 2))), merged, "merge")
	requireDiff(t, part("k", row("r").WithDeletion(delAt(3, 2))), merged, a)
	requireDiff(t, part("k", row("s").WithDeletion(delAt(7, 2))), merged, b)
}

func TestRowDeletionShadowedByPartitionDeletionDisappears(t *testing.T) {
	for _, rd := range []replica.Deletion{delAt(2, 0), delAt(3, 4), delAt(3, 5)} {
		a := part("k", row("r").WithDeletion(rd))
		b := part("k").WithDeletion(delAt(3, 5))
		requireSame(t, b, mustMerge(t, a, b), "row deletion %+v", rd)
	}
}

func TestRowDeletionNewerThanPartitionDeletionStays(t *testing.T) {
	for _, rd := range []replica.Deletion{delAt(4, 0), delAt(3, 6)} {
		a := part("k", row("r").WithDeletion(rd))
		b := part("k").WithDeletion(delAt(3, 5))
		requireSame(t, a.WithDeletion(delAt(3, 5)), mustMerge(t, a, b), "row deletion %+v", rd)
	}
}

func TestCellTombstonesAreKeptUnlessDeleted(t *testing.T) {
	a := part("k", row("r", live("x", "v", 1), live("y", "v", 1)))
	b := part("k", row("r", tomb("x", 2, 50)))
	merged := mustMerge(t, a, b)
	requireSame(t, part("k", row("r", tomb("x", 2, 50), live("y", "v", 1))), merged, "merge")
	requireDiff(t, b, merged, a)

	deleted := mustMerge(t, merged, part("k", row("r").WithDeletion(delAt(2, 60))))
	requireSame(t, part("k", row("r").WithDeletion(delAt(2, 60))), deleted, "tombstone under a row deletion")
}

func TestRowsLeftEmptyDisappear(t *testing.T) {
	a := part("k", row("a", live("x", "v", 1)), row("b", live("x", "v", 9)), row("c", live("y", "v", 2)))
	b := part("k").WithDeletion(delAt(5, 0))
	requireSame(t, part("k", row("b", live("x", "v", 9))).WithDeletion(delAt(5, 0)), mustMerge(t, a, b), "merge")
}

func TestMergeInterleavesRowsOfEveryVersion(t *testing.T) {
	a := part("k", row("a", live("x", "a", 1)), row("d", live("x", "d", 1)))
	b := part("k", row("b", live("x", "b", 1)), row("d", live("y", "d", 1)))
	c := part("k", row("c", live("x", "c", 1)), row("e", live("x", "e", 1)))
	want := part("k", row("a", live("x", "a", 1)), row("b", live("x", "b", 1)), row("c", live("x", "c", 1)),
		row("d", live("x", "d", 1), live("y", "d", 1)), row("e", live("x", "e", 1)))
	requireSame(t, want, mustMerge(t, a, b, c), "merge")
	requireDiff(t, part("k", row("b", live("x", "b", 1)), row("c", live("x", "c", 1)),
		row("d", live("y", "d", 1)), row("e", live("x", "e", 1))), want, a)
}

func TestMergeOfOneVersionDropsWhatItsDeletionsShadow(t *testing.T) {
	v := part("k", row("r", live("x", "v", 1)).WithDeletion(delAt(2, 0))).WithDeletion(delAt(3, 0))
	requireSame(t, part("k").WithDeletion(delAt(3, 0)), mustMerge(t, v), "merge")
}

func TestMergeOfMissingPartitionsIsEmpty(t *testing.T) {
	m := mustMerge(t, part("k"), part("k"))
	requireSame(t, part("k"), m, "merge")
	assert.True(t, m.IsEmpty())
}

func TestMergeResultSharesNoMemory(t *testing.T) {
	a := part("k", row("r", live("x", "aaaa", 2), live("y", "b", 1)), row("s", live("x", "c", 1)))
	b := part("k", row("r", live("x", "zz", 1)))
	before := cloneAll([]replica.Partition{a, b})
	merged := mustMerge(t, a, b)
	for _, r := range merged.Rows {
		for _, c := range r.Cells {
			for i := range c.Value {
				c.Value[i] = '!'
			}
		}
	}
	requireSame(t, before[0], a, "a after writing to the merge")
	requireSame(t, before[1], b, "b after writing to the merge")

	// Growing one row's cells or one cell's value must not overwrite its
	// neighbours, which may share an arena block.
	merged = mustMerge(t, a, b)
	want := merged.Clone()
	merged.Rows[0].Cells = append(merged.Rows[0].Cells, live("z", "grown", 3))
	merged.Rows[0].Cells[0].Value = append(merged.Rows[0].Cells[0].Value, "grown"...)
	requireSame(t, part("k", want.Rows[1]), part("k", merged.Rows[1]), "neighbouring row")
	require.Equal(t, "b", string(merged.Rows[0].Cells[1].Value), "neighbouring value")
}
