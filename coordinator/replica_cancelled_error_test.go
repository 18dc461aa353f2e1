package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// ownCancel is a replica whose reads fail at once with an error wrapping
// context.Canceled, as a client whose connection was torn down may return,
// while the read that asked it is still running.
type ownCancel struct{ replica.Replica }

func (ownCancel) Read(context.Context, replica.Command) (replica.Response, error) {
	return replica.Response{}, fmt.Errorf("rpc: stream reset: %w", context.Canceled)
}

// A replica that fails with context.Canceled of its own, the read not
// cancelled, failed: the snitch counts a miss and takes its time for no
// latency, so the next read asks another replica first, as after any
// other failure.
func TestReplicaCancelledErrorIsItsFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := newEnv(t, coordinator.Config{}).cluster // A first in its order
		c, err := coordinator.New(coordinator.Config{Liveness: cl, DefaultTable: policy(t, "NEVER"),
			Locator: wrapping(cl, 1, func(r replica.Replica) replica.Replica { return ownCancel{r} })})
		require.NoError(t, err)
		defer c.Close()
		read := func() (coordinator.Result, error) {
			return c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		}

		res, err := read()
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure, "the replica's failure, not the caller's cancellation")
		require.Equal(t, A, res.Trace.Requests[0].Endpoint)
		settle()
		var a coordinator.ReplicaMetrics
		for _, r := range c.Metrics().Replicas {
			if r.Endpoint.ID == A {
				a = r
			}
		}
		assert.Equal(t, int64(1), a.Misses)
		assert.Zero(t, a.Latency, "a failure's time is not a latency")
		m := c.Metrics().Total
		assert.Equal(t, int64(1), m.Failures)
		assert.Zero(t, m.Cancelled)

		res, err = read()
		require.NoError(t, err)
		assert.NotEqual(t, A, res.Trace.Requests[0].Endpoint, "A, which failed, ranks last")
	})
}
