package replicatest

import (
	"testing"

	"github.com/readpath/readpath/replica"
)

// checkAnswersStayAsReturned keeps the data answers of some reads and
// checks that later reads, and a write that overwrites their cells in
// place, left them as they were returned: the coordinator hands an answer
// on to its caller (replica.Replica's Read), so a replica that merges a
// write into the memory of an answer it gave, or reuses a buffer across
// reads, changes a result its caller holds.
func checkAnswersStayAsReturned(t *testing.T, r replica.Replica) {
	first := replica.NewPartition("k", replica.NewRow("r1", replica.Live("a", "1", 10)), replica.NewRow("r2", replica.Live("a", "1", 10)))
	second := replica.NewPartition("k", replica.NewRow("r1", replica.Live("a", "2", 20)), replica.NewRow("r2", replica.Live("a", "2", 20)))
	apply(t, r, first)
	apply(t, r, replica.NewPartition("other", replica.NewRow("r3", replica.Live("b", "3", 30))))
	cmds := []replica.Command{
		{Table: conformanceTable, Key: "k"},
		queryCommand("k", replica.Query{Limit: 1, Reversed: true}),
	}
	var answers, kept []replica.Partition
	for _, cmd := range cmds {
		if got, ok := readData(t, r, cmd); ok {
			answers, kept = append(answers, got), append(kept, got.Clone())
		}
	}
	readData(t, r, replica.Command{Table: conformanceTable, Key: "other"})
	apply(t, r, second)
	readData(t, r, replica.Command{Table: conformanceTable, Key: "k"})
	for i, got := range answers {
		if !got.Equal(kept[i]) {
			t.Errorf("a data answer of %q changed after later reads and writes: once returned, an answer must not be modified or reused by the replica\n got %v\nwant %v (as returned)",
				got.Key, got, kept[i])
		}
	}
}
