package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Respond's doc: a data answer's rows and range tombstones are capped at
// their length, whole or in part. An answer that is the whole of
// stored (the zero Query, nothing to purge) kept stored's spare capacity:
// two clients appending to answers of the same stored partition wrote the
// same slot of its array.
func TestRespondCapsAWholeAnswer(t *testing.T) {
	rows := make([]replica.Row, 0, 8)
	rows = append(rows, replica.NewRow("a", replica.Live("v", "1", 10)), replica.NewRow("b", replica.Live("v", "2", 10)))
	rts := make([]replica.RangeTombstone, 0, 4)
	rts = append(rts, replica.NewRangeTombstone(replica.StartAt("c"), replica.EndAt("d"), replica.DeletedAt(5, 100)))
	stored := replica.NewPartition("k", rows...).WithRangeTombstones(rts...)
	stored.Rows, stored.RangeTombstones = rows, rts // keep the capacity as a store built by append would
	require.Greater(t, cap(stored.Rows), len(stored.Rows))

	for _, cmd := range []replica.Command{
		{Table: "t", Key: "k"},
		{Table: "t", Key: "k", Query: replica.Query{Limit: 10}},
	} {
		resp, err := cmd.Respond(stored)
		require.NoError(t, err)
		p := resp.Partition
		require.Len(t, p.Rows, 2)
		assert.Equal(t, len(p.Rows), cap(p.Rows), "%+v: the answer's rows have room to grow into stored's array", cmd.Query)
		assert.Equal(t, len(p.RangeTombstones), cap(p.RangeTombstones), "%+v: the answer's range tombstones have room to grow", cmd.Query)

		// Two clients appending to their answers of the same stored partition.
		r1, _ := cmd.Respond(stored)
		r2, _ := cmd.Respond(stored)
		one := append(r1.Partition.Rows, replica.NewRow("x", replica.Live("v", "client 1", 1)))
		_ = append(r2.Partition.Rows, replica.NewRow("y", replica.Live("v", "client 2", 1)))
		assert.Equal(t, "x", one[2].Clustering, "%+v: client 2's append wrote over client 1's", cmd.Query)
	}
}
