package repair_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// SizeFor foretells what Blocks.Size reports after the merge: at least
// that, and less than twice it (the runtime rounds a block up to its own
// size classes).
func TestSizeForForetellsTheBlocksAMergeUses(t *testing.T) {
	for _, n := range []int{1, 3, 10, 100, 1000} {
		vs := blockVersions(n)
		var r repair.Resolver
		var b repair.Blocks
		_, err := r.MergeIn(&b, vs...)
		require.NoError(t, err)
		want := repair.SizeFor(vs...)
		require.Positive(t, want)
		require.GreaterOrEqual(t, b.Size(), want, "%d rows", n)
		require.Less(t, b.Size(), 2*want, "%d rows", n)
	}
}

// Under a partition deletion that covers every row, a merge builds
// nothing, and SizeFor says so: a caller does not take large Blocks for
// it.
func TestSizeForCountsWhatAPartitionDeletionLeaves(t *testing.T) {
	vs := blockVersions(100)
	vs[1].Deletion = replica.DeletedAt(10, 1700000000)
	require.Zero(t, repair.SizeFor(vs...))
	require.Zero(t, repair.SizeFor())
}
