package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// Under ALWAYS at QUORUM A and B are asked for data and C for a digest.
// When A's and B's versions are in first and differ, the reconcile round
// has its blockFor versions already: it merges them and repairs at once,
// so asking C, whose digest is late, for its data would be a request the
// read never waits for (C makes up no level here, whatever it answers).
func TestReconcileWithVersionsInHandAsksNoStraggler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "ALWAYS")})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B))
		e.behave(t, C, constant(ms(50)))

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.True(t, res.Trace.DigestMismatch)
		assert.Equal(t, []string{A}, res.Trace.Repaired)
		assert.Equal(t, ms(2), took, "merged at 1 ms, A's repair acknowledged at 2 ms")
		assert.Empty(t, contactedIn(res.Trace, coordinator.PhaseReconcile))
		settle()
		assert.Equal(t, int64(1), e.stats(C).Reads, "C's digest request only")
	})
}
