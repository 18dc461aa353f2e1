package coordinator_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// acksWithoutApplying acknowledges repairs and stays stale, so that every
// read of it mismatches.
type acksWithoutApplying struct{ replica.Replica }

func (a acksWithoutApplying) Apply(ctx context.Context, _ replica.Mutation) error { return ctx.Err() }

// mutuallyStale is a coordinator configured by cfg over instantCluster's
// replicas, each holding one cell of key's row newer than the others' and
// acknowledging repairs without applying them.
func mutuallyStale(t *testing.T, cfg coordinator.Config) *coordinator.Coordinator {
	t.Helper()
	c := openStaleCoordinator(t, cfg, func(i int) []replica.Partition {
		cells := []replica.Cell{replica.Live("c0", "x", 10), replica.Live("c1", "x", 10), replica.Live("c2", "x", 10)}
		cells[i].Timestamp++ // written once more, on this replica alone
		return []replica.Partition{replica.NewPartition(key, replica.NewRow("r", cells...))}
	})
	t.Cleanup(func() { c.Close() })
	return c
}

// A QUORUM read of a one-row partition whose two contacts each lack a cell
// of the other's, repaired BLOCKING, allocates what every read does (four
// objects), the reconcile and repair rounds' channels, the merge's rows
// and cells, the Resolver's list of diffs, each stale replica's diff (rows,
// cells and values: six), and the repair writes and Trace.Repaired: 17
// objects. Its versions and their partitions are in room its recycled
// state keeps (four objects), a blocking repair asks whether it timed out
// only when it failed (the question allocated), and Trace.Repaired is made
// to size.
func TestARepairedMismatchAllocates17Objects(t *testing.T) {
	race.SkipPooledAllocs(t)
	c := mutuallyStale(t, coordinator.Config{})

	allocs, res := readAllocs(t, c, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	require.Len(t, res.Trace.Repaired, 2)
	assert.Equal(t, 17.0, allocs)
}
