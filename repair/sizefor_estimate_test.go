package repair_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Rows that a partition deletion leaves only because their own row
// deletion is newer survive the merge as rows (a row deletion is content
// to merge, digest and repair): SizeFor counts them, so that a caller that
// pools Blocks by size takes Blocks the merge builds in.
func TestSizeForCountsRowDeletionsAPartitionDeletionLeaves(t *testing.T) {
	rows := make([]replica.Row, 50)
	for j := range rows {
		rows[j] = replica.Row{Clustering: genKey(j), Deletion: replica.DeletedAt(10, 1700000000)}
	}
	vs := []replica.Partition{
		replica.NewPartition("k", rows...).WithDeletion(replica.DeletedAt(5, 1700000000)),
		replica.NewPartition("k"),
	}
	merged := mustMerge(t, vs...)
	require.Len(t, merged.Rows, 50, "the newer row deletions survive the partition deletion")
	require.GreaterOrEqual(t, repair.SizeFor(vs...), len(merged.Rows)*rowBytes)
}

// SizeFor samples a few rows spread over a version, the first and the last
// among them, and scales what they hold to all its rows rounding up. Of 9
// rows, the eight samples are rows 0-6 and 8: with 2 cells in rows 0 and
// 7 and 1 in the others, they hold 9 cells, scaled to ceil(9*9/8) = 11,
// the 11 cells there are (rounded down, 10); with 100 cells in the last
// row, the estimate covers the 108 cells there are (missing the last row,
// 9).
func TestSizeForSamplesTheLastRowAndRoundsUp(t *testing.T) {
	version := func(cellsIn map[int]int) replica.Partition {
		rows := make([]replica.Row, 9)
		for j := range rows {
			n := max(cellsIn[j], 1)
			cells := make([]replica.Cell, n)
			for c := range cells {
				cells[c] = replica.Live(fmt.Sprintf("c%03d", c), "v", 1)
			}
			rows[j] = replica.NewRow(genKey(j), cells...)
		}
		return replica.NewPartition("k", rows...)
	}
	for _, tc := range []struct {
		name    string
		cellsIn map[int]int
		cells   int
	}{
		{"rounded up", map[int]int{0: 2, 7: 2}, 11},
		{"the last row sampled", map[int]int{8: 100}, 108},
	} {
		v := version(tc.cellsIn)
		require.Equal(t, tc.cells, cellsOf(v), tc.name)
		require.GreaterOrEqual(t, repair.SizeFor(v), 9*rowBytes+tc.cells*cellBytes, tc.name)
	}
}
