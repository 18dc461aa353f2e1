package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A failed read still returns its trace: a tracer wrapping Read makes its
// span, with a child per request, for the reads that matter most.
func TestFailedReadReturnsItsTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "4ms")})
		stall := replicatest.Behavior{Pauses: []replicatest.Window{{Start: 0, End: time.Hour}}}
		e.behave(t, A, stall)
		e.behave(t, B, stall)

		start := time.Now()
		res, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		tr := res.Trace
		assert.Equal(t, start, tr.Start)
		assert.Equal(t, took, tr.Duration)
		assert.Equal(t, 2, tr.BlockFor)
		require.Len(t, tr.Requests, 3, "A's data, B's digest, the hedge to C")
		assert.Equal(t, coordinator.Pending, tr.Requests[0].Outcome)
		assert.Equal(t, coordinator.Answered, tr.Requests[2].Outcome)
		assert.True(t, tr.Hedge.Fired)
		assert.Equal(t, C, tr.Hedge.To)
	})
}

// An unavailable read's trace says when it ran; a read refused before it
// started has none.
func TestUnstartedReadHasNoTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SetAlive(A, false))
		require.NoError(t, e.cluster.SetAlive(B, false))
		res, _, err := e.read(consistency.Quorum)
		var unavailable *consistency.UnavailableError
		require.ErrorAs(t, err, &unavailable)
		assert.False(t, res.Trace.Start.IsZero())
		assert.Empty(t, res.Trace.Requests)
		assert.Equal(t, 2, res.Trace.BlockFor, "as the error's Required")

		res, err = e.c.Read(context.Background(), coordinator.Request{Key: key, Level: consistency.Quorum})
		require.ErrorIs(t, err, coordinator.ErrInvalidRequest)
		assert.True(t, res.Trace.Start.IsZero())
	})
}
