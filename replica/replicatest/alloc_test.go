package replicatest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// A read from a replica that answers at once does not allocate: the
// coordinator's benchmarks run over such replicas and measure themselves.
func TestInstantReadsDoNotAllocate(t *testing.T) {
	race.SkipPooledAllocs(t)
	r := newReplica(t)
	require.NoError(t, r.Seed(table, partition("k", "v", 1)))
	ctx := context.Background()
	for _, cmd := range []replica.Command{
		{Table: table, Key: "k"}, {Table: table, Key: "k", DigestOnly: true}, {Table: table, Key: "missing"},
	} {
		allocs := testing.AllocsPerRun(100, func() {
			_, err := r.Read(ctx, cmd)
			require.NoError(t, err)
		})
		assert.Zero(t, allocs, "%+v", cmd)
	}
}

// Locate allocates nothing: it hands out the ring's shared slices, and a
// pinned key's.
func TestLocateAllocatesNothing(t *testing.T) {
	c := threeByThree(t)
	require.NoError(t, c.Pin(table, "pinned", "dc1-r1-n1"))
	for _, key := range []string{"k", "pinned"} {
		allocs := testing.AllocsPerRun(100, func() {
			_, _, err := c.Locate(table, key)
			require.NoError(t, err)
		})
		assert.Zero(t, allocs, key)
	}
}
