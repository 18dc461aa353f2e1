package replica_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// appendToAll appends a row, a range tombstone and a cell to every slice of
// p a client might extend: its rows, its range tombstones and each row's
// cells.
func appendToAll(p replica.Partition) {
	rt := replica.RangeTombstone{Start: replica.StartAt("zz"), End: replica.EndAt("zzz"), Deletion: replica.DeletedAt(1, 1)}
	_ = append(p.Rows, replica.NewRow("zz", replica.Live("v", "client's", 1)))
	_ = append(p.RangeTombstones, rt)
	for _, r := range p.Rows {
		_ = append(r.Cells, replica.Live("zz", "client's", 1))
	}
}

// A data answer, a limited partition and a restricted one share memory
// with what they were cut from, but with no room to grow: a client
// appending to them (an IN query's rows joined into one list) copies them.
// Respond's answer to a limited or sliced read was a window on the stored
// rows with their capacity, and appending to it wrote over the stored
// partition (found by an embedder's review).
func TestAppendingToAnAnswerLeavesStoredAsItWas(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := widePartitionGen().Draw(t, "stored")
		stored := w.p
		kept := stored.Clone()
		cmd := commandGen(t, stored)
		cmd.TombstoneFailureThreshold = 0
		resp, err := cmd.Respond(stored)
		require.NoError(t, err)
		appendToAll(resp.Partition)
		require.True(t, stored.Equal(kept), "appending to Respond's answer changed the stored partition:\n got %v\nwant %v", stored, kept)

		limited, _ := stored.Limit(cmd.Query, cmd.NowInSec)
		appendToAll(limited)
		require.True(t, stored.Equal(kept), "appending to Limit's partition changed its input:\n got %v\nwant %v", stored, kept)

		appendToAll(stored.Restrict(cmd.Query))
		require.True(t, stored.Equal(kept), "appending to Restrict's partition changed its input:\n got %v\nwant %v", stored, kept)
	})
}
