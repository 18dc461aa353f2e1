package repair_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A partition deletion older than the static row leaves the static row,
// which the merge builds in Blocks' cells: SizeFor counts its cells, and a
// second merge in the same Blocks builds in the first's memory.
func TestSizeForCountsTheStaticRowAPartitionDeletionLeaves(t *testing.T) {
	static := func(ts int64) []replica.Cell {
		cs := make([]replica.Cell, 500)
		for c := range cs {
			cs[c] = replica.Live(fmt.Sprintf("s%03d", c), "v", ts)
		}
		return cs
	}
	vs := []replica.Partition{
		replica.NewPartition("k").WithStatic(static(10)...).WithDeletion(replica.DeletedAt(5, 1700000000)),
		replica.NewPartition("k").WithStatic(static(11)...),
	}
	var r repair.Resolver
	var b repair.Blocks
	first, err := r.MergeIn(&b, vs...)
	require.NoError(t, err)
	require.Len(t, first.Static.Cells, 500)
	want := repair.SizeFor(vs...)
	require.GreaterOrEqual(t, want, b.Size()/2, "SizeFor %d, the merge built in %d bytes", want, b.Size())
	second, err := r.MergeIn(&b, vs...)
	require.NoError(t, err)
	require.Same(t, &first.Static.Cells[0], &second.Static.Cells[0], "the second merge did not build in the first's cells")
}
