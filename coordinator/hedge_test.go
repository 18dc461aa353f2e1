package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// QUORUM, RF 3: A is in an 80 ms GC pause; with a 4 ms threshold the read
// hedges to C at 4 ms and completes at 4 ms plus C's 2 ms, with exactly one
// extra read and no repair.
func TestHedgeAroundGCPause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "4ms")})
		e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: 0, End: ms(80)}}})
		e.behave(t, C, constant(ms(2)))

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(6), took)
		assert.True(t, res.Partition.Equal(row(key, "v1", 10)))

		h := res.Trace.Hedge
		assert.True(t, h.Fired)
		assert.Equal(t, ms(4), h.At)
		assert.Equal(t, C, h.To)
		assert.True(t, h.Won)
		assert.False(t, res.Trace.DigestMismatch)

		settle()
		assert.Equal(t, int64(3), e.totalReads(), "exactly one extra read")
		assert.Equal(t, int64(1), e.stats(C).DataReads, "A's data was not in, so C is asked for data")
		assert.Equal(t, int64(1), e.stats(A).Cancellations, "the paused loser is cancelled")
		assert.Equal(t, int64(0), e.cluster.Stats().Mutations, "no repair")
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.SpeculativeRetries)
		assert.Equal(t, int64(1), m.HedgeWins)
	})
}
