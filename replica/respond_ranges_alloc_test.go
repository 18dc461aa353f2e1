package replica_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// A limited read of a partition with a range tombstone between each two
// rows, when nothing is purged, answers a part of the stored partition
// without allocating: the range tombstones it keeps end before the row
// after its last, so none needs clipping (BenchmarkRespondRangesLimit100Of10000,
// whose zero allocations the README says a test pins).
func TestRespondLimitedBetweenRangeTombstonesDoesNotAllocate(t *testing.T) {
	race.SkipPooledAllocs(t)
	const n, limit = 1000, 100
	key := func(i int) string { return fmt.Sprintf("r%06d", i) }
	rows := make([]replica.Row, n)
	for i := range rows {
		rows[i] = replica.NewRow(key(i), replica.Live("v", "x", 5))
	}
	rts := make([]replica.RangeTombstone, 0, n-1)
	for i := range n - 1 {
		rts = append(rts, replica.NewRangeTombstone(replica.StartAfter(key(i)), replica.EndBefore(key(i+1)), replica.DeletedAt(1, 100)))
	}
	p := replica.NewPartition("k", rows...).WithRangeTombstones(rts...)
	require.NoError(t, p.Validate())
	for _, cmd := range []replica.Command{
		{Key: "k", NowInSec: 200, GCBefore: 50, Query: replica.Query{Limit: limit}},
		{Key: "k", NowInSec: 200, GCBefore: 50, Query: replica.Query{Limit: limit, Reversed: true}},
		{Key: "k", NowInSec: 200, GCBefore: 50, Query: replica.Query{Limit: limit}.After(key(n / 2))},
		{Key: "k", NowInSec: 200, GCBefore: 50, DigestOnly: true, Query: replica.Query{Limit: limit}},
	} {
		resp, err := cmd.Respond(p)
		require.NoError(t, err)
		if !cmd.DigestOnly {
			require.Len(t, resp.Partition.Rows, limit)
		}
		assert.Zero(t, testing.AllocsPerRun(20, func() { _, _ = cmd.Respond(p) }), "%+v", cmd.Query)
	}
}
