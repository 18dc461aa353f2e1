package coordinator

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Short-read protection merges once a round, with a pooled Resolver: a
// continuation's merge allocates its rows and cells, not repair.Merge's
// six objects (its scratch, the list of its versions, and a copy of every
// value), and is Merge's partition.
func TestShortReadRoundsMergeWithPooledScratch(t *testing.T) {
	race.SkipPooledAllocs(t)
	tenRows := func(from int) replica.Partition {
		rows := make([]replica.Row, 10)
		for i := range rows {
			rows[i] = replica.NewRow(fmt.Sprintf("r%03d", from+i), replica.Live("v", "x", 1))
		}
		return replica.NewPartition("k", rows...)
	}
	merged, continuation := tenRows(0), tenRows(10)
	want, err := repair.Merge(merged, continuation)
	require.NoError(t, err)
	got, err := mergeTwo(merged, continuation)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.LessOrEqual(t, testing.AllocsPerRun(100, func() { _, _ = mergeTwo(merged, continuation) }), 2.0)
}

// Whether a replica has rows left after its last is asked of the query's
// edge slice in place, every round, for every replica that reached the
// limit: copying the slices (Query.After) allocated once a round.
func TestShortReadsFollowsAllocatesNothing(t *testing.T) {
	for _, q := range []replica.Query{
		{Limit: 10},
		{Limit: 10, Reversed: true},
		{Limit: 10, Slices: []replica.Slice{{Start: replica.StartAt("a"), End: replica.EndAt("c")}, {Start: replica.StartAt("x"), End: replica.Top()}}},
	} {
		s := &shortReads{q: q}
		require.Zero(t, testing.AllocsPerRun(100, func() { _ = s.follows("b") }), "%+v", q)
	}
}
