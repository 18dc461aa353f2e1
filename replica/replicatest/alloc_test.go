package replicatest_test

import (
	"context"
	"testing"

	"github.com/readpath/readpath/replica"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A read from a replica that answers at once does not allocate: the
// coordinator's benchmarks run over such replicas and measure themselves.
func TestInstantReadsDoNotAllocate(t *testing.T) {
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

// Locate allocates only the slice it returns.
func TestLocateAllocatesOnlyItsResult(t *testing.T) {
	c := threeByThree(t)
	allocs := testing.AllocsPerRun(100, func() {
		_, _, err := c.Locate(table, "k")
		require.NoError(t, err)
	})
	assert.Equal(t, 1.0, allocs)
}
