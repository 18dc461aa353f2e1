package repair_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

func TestDiffOfAnUpToDateVersionIsEmpty(t *testing.T) {
	merged := part("k", row("r", live("x", "v", 1), tomb("y", 2, 3)).WithDeletion(delAt(1, 1))).WithDeletion(delAt(0, 1))
	requireDiff(t, part("k"), merged, merged.Clone())
}

func TestDiffForAMissingPartitionIsEverything(t *testing.T) {
	merged := part("k", row("a", live("x", "v", 1)), row("b").WithDeletion(delAt(4, 2))).WithDeletion(delAt(0, 1))
	requireDiff(t, merged, merged, part("k"))
}

func TestDiffSendsOnlyWhatLoses(t *testing.T) {
	merged := part("k",
		row("a", live("x", "v", 2), live("y", "w", 2)),
		row("b", live("x", "v", 1)),
		row("c", live("x", "v", 1)).WithDeletion(delAt(0, 5)),
	)
	version := part("k",
		row("a", live("x", "v", 2), live("y", "w", 1)),        // x up to date, y older
		row("c", live("x", "v", 1)).WithDeletion(delAt(0, 4)), // cell up to date, deletion older
		row("d", live("x", "extra", 1)),                       // nothing in merged to send
	)
	requireDiff(t, part("k",
		row("a", live("y", "w", 2)),
		row("b", live("x", "v", 1)),
		row("c").WithDeletion(delAt(0, 5)),
	), merged, version)
}

// A version that was not one of merged's inputs may hold newer data; Diff
// never sends anything that would lose to it.
func TestDiffSendsNothingOlderThanTheVersion(t *testing.T) {
	merged := part("k", row("r", live("x", "old", 1)).WithDeletion(delAt(0, 1))).WithDeletion(delAt(0, 0))
	newer := part("k", row("r", live("x", "new", 2)).WithDeletion(delAt(1, 0))).WithDeletion(delAt(1, 1))
	requireDiff(t, part("k"), merged, newer)
	// Nor a partition deletion older than the version's: the diff carries
	// merged's only if it supersedes version's (Diff's doc).
	requireDiff(t, part("k"), part("k").WithDeletion(delAt(0, 1)), newer)
	// Nor a complex deletion older than the version's of its column.
	requireDiff(t, part("k"), part("k", row("r").WithComplexDeletion("m", delAt(1, 1))),
		part("k", row("r").WithComplexDeletion("m", delAt(2, 1))))
}

// A range tombstone of merged that the version's partition deletion is at
// least as strong as is not sent, as Diff's documentation says: the
// version's own range tombstones are not the only cover it checks.
func TestDiffSendsNoRangeTombstoneThePartitionDeletionCovers(t *testing.T) {
	merged := part("k").WithRangeTombstones(rt(1, 3, 5), rt(5, 7, 9))
	for _, tc := range []struct {
		name    string
		version replica.Partition
		want    replica.Partition
	}{
		{"stronger", part("k").WithDeletion(delAt(10, 1)), part("k")},
		{"as strong as one", part("k").WithDeletion(delAt(5, 1)), part("k").WithRangeTombstones(rt(5, 7, 9))},
		{"weaker", part("k").WithDeletion(delAt(4, 1)), merged},
	} {
		t.Run(tc.name, func(t *testing.T) { requireDiff(t, tc.want, merged, tc.version) })
	}
}

func TestDiffDoesNotModifyItsArguments(t *testing.T) {
	merged := part("k", row("r", live("x", "vvv", 2)))
	version := part("k", row("r", live("x", "v", 1)))
	before := cloneAll([]replica.Partition{merged, version})
	d, stale := repair.Diff(merged, version)
	require.True(t, stale)
	d.Rows[0].Cells[0].Value[0] = '!'
	requireSame(t, before[0], merged, "merged")
	requireSame(t, before[1], version, "version")
}
