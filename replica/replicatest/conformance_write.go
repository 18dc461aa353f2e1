package replicatest

import (
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// checkReadsAfterWrite reads a partition, data and digest, applies a newer
// write to it and reads it again with the same commands: the second
// answers must be Respond's for the merge, so that a replica that caches
// answers (a digest cache, say) and misses a write's invalidation fails.
func checkReadsAfterWrite(t *testing.T, r replica.Replica) {
	older, newer := versions("k")
	apply(t, r, older)
	cmds := []replica.Command{
		{Table: conformanceTable, Key: "k"},
		{Table: conformanceTable, Key: "k", Columns: []string{"b", "e"}},
		queryCommand("k", replica.Query{Slices: []replica.Slice{sl(replica.StartAt("r1"), replica.EndAt("r2"))}}),
	}
	for _, cmd := range cmds {
		expectAnswer(t, r, cmd, older)
	}
	apply(t, r, newer)
	merged, _ := repair.Merge(older, newer)
	for _, cmd := range cmds {
		expectAnswer(t, r, cmd, merged)
	}
}

// checkApplyLeavesItsInput applies two writes of one partition, the second
// overwriting the first's cells row for row, and checks that Apply changed
// neither partition it was given, when it returned and after the later
// write: a replica that stores the first partition as it was given and
// merges the second into its rows in place fails, as does one that
// recycles its input's buffers.
func checkApplyLeavesItsInput(t *testing.T, r replica.Replica) {
	first := replica.NewPartition("k", replica.NewRow("r1", replica.Live("a", "1", 10)), replica.NewRow("r2", replica.Live("a", "1", 10)))
	second := replica.NewPartition("k", replica.NewRow("r1", replica.Live("a", "2", 20)), replica.NewRow("r2", replica.Live("a", "2", 20)))
	firstGiven, secondGiven := first.Clone(), second.Clone()
	if err := applyErr(t, r, conformanceTable, firstGiven); err != nil {
		t.Fatalf("Apply of %q: %v", first.Key, err)
	}
	expectUnchanged(t, "Apply", first, firstGiven)
	if err := applyErr(t, r, conformanceTable, secondGiven); err != nil {
		t.Fatalf("Apply of %q: %v", second.Key, err)
	}
	expectUnchanged(t, "Apply", second, secondGiven)
	expectUnchanged(t, "a later Apply", first, firstGiven)
	expectData(t, r, replica.Command{Table: conformanceTable, Key: "k"}, second)
	expectUnchanged(t, "a later Read", first, firstGiven)
}
