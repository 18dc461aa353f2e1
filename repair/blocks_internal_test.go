package repair

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// A merge in reused blocks clears what it leaves unwritten of them: an
// earlier, larger partition's rows and cells there would keep its strings
// and values alive as long as the new one is.
func TestResolveInClearsWhatItLeavesOfAReusedBlock(t *testing.T) {
	versions := func(n int) replica.Partition {
		rows := make([]replica.Row, n)
		for i := range rows {
			rows[i] = replica.NewRow(string(rune('a'+i)), replica.Live("x", "value", 1), replica.Live("y", "value", 1))
		}
		return replica.NewPartition("k", rows...)
	}
	var r Resolver
	var b Blocks
	_, _, err := r.ResolveIn(&b, versions(20))
	require.NoError(t, err)
	rows, cells := b.rows[:1], b.cells[:1]
	merged, _, err := r.ResolveIn(&b, versions(15))
	require.NoError(t, err)
	require.Same(t, &rows[0], &b.rows[:1][0], "the second merge did not reuse the rows block")
	require.Same(t, &cells[0], &b.cells[:1][0], "the second merge did not reuse the cells block")
	require.Len(t, merged.Rows, 15)
	for i, row := range b.rows[15:cap(b.rows)] {
		require.Zero(t, row, "row %d past the merge", 15+i)
	}
	for i, c := range b.cells[30:cap(b.cells)] {
		require.Zero(t, c, "cell %d past the merge", 30+i)
	}
}

// wideVersion returns partition key with rows rows of cells cells each,
// whose values start with tag.
func wideVersion(key, tag string, first, rows, cells int) replica.Partition {
	rs := make([]replica.Row, rows)
	for i := range rs {
		cs := make([]replica.Cell, cells)
		for c := range cs {
			cs[c] = replica.Live(string(rune('a'+c)), fmt.Sprintf("%s-%d-%d", tag, i, c), 1)
		}
		rs[i] = replica.NewRow(fmt.Sprintf("r%04d", first+i), cs...)
	}
	return replica.NewPartition(key, rs...)
}

// A merge that builds no rows, or rows without cells, leaves no block of an
// earlier merge in the Blocks: the partition it returns would keep that
// merge's rows, and through them its strings and values, alive (found by
// review: a deleted partition's result held 100 released rows of 64 KB).
func TestAMergeWithoutRowsOrCellsKeepsNoEarlierBlock(t *testing.T) {
	var r Resolver
	var b Blocks
	_, _, err := r.ResolveIn(&b, wideVersion("k", "old", 0, 100, 2))
	require.NoError(t, err)
	require.Positive(t, cap(b.rows))
	deleted := replica.NewPartition("k").WithDeletion(replica.DeletedAt(10, 100))
	merged, _, err := r.ResolveIn(&b, deleted, wideVersion("k", "old", 0, 100, 2))
	require.NoError(t, err)
	require.Empty(t, merged.Rows)
	require.Zero(t, cap(b.rows), "a merge of no rows kept the rows block of the one before")
	require.Zero(t, cap(b.cells), "a merge of no cells kept the cells block of the one before")

	_, _, err = r.ResolveIn(&b, wideVersion("k", "old", 0, 100, 2))
	require.NoError(t, err)
	bare := replica.NewPartition("k", replica.NewRow("r0000").WithLiveness(replica.Inserted(5)))
	merged, _, err = r.ResolveIn(&b, bare)
	require.NoError(t, err)
	require.Len(t, merged.Rows, 1)
	require.Zero(t, cap(b.cells), "a merge of rows without cells kept the cells block of the one before")
}
