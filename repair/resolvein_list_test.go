package repair_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// The list of diffs ResolveIn returns, given whole as the versions of the
// Resolver's next ResolveIn (the list is the Resolver's, and the call
// reuses it for its own diffs), is diffed right: a version's partition
// deletion stays its own until its diff is built (found by review: the
// diff of a version holding the deletion carried it again, as if the
// version lacked it).
func TestResolveInDiffsTheListItReturnedLast(t *testing.T) {
	var r repair.Resolver
	var b repair.Blocks
	del := replica.DeletedAt(5, 100)
	_, diffs, err := r.ResolveIn(&b,
		replica.NewPartition("k", replica.NewRow("a", replica.Live("x", "1", 10))).WithDeletion(del),
		replica.NewPartition("k", replica.NewRow("b", replica.Live("x", "2", 10))))
	require.NoError(t, err)
	vs := cloneAll(diffs)
	want := mustMerge(t, vs...)
	var fresh repair.Blocks
	merged, got, err := r.ResolveIn(&fresh, diffs...)
	require.NoError(t, err)
	requireSame(t, want, merged, "merge")
	for i, v := range vs {
		wantDiff, _ := repair.Diff(want, v)
		requireSame(t, wantDiff, got[i], "diff of version %d", i)
	}
}
