package repair

import (
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
