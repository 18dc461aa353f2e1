package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// ownDeadlineTransport is a transport that times the request to its
// context's deadline with a timer of its own and, as it fires, fails with
// a connection error: the instant the read's timer is due too.
type ownDeadlineTransport struct{ replica.Replica }

func (o ownDeadlineTransport) Read(ctx context.Context, _ replica.Command) (replica.Response, error) {
	dl, _ := ctx.Deadline()
	time.Sleep(time.Until(dl))
	return replica.Response{}, replica.ErrConnectionFailed
}

// A request that fails at its read's deadline is a timeout to the outcome
// reporter, the trace and the read's error, whichever of the replica's
// timer and the read's ran first: told as the connection failure it
// returned, it had a failure detector convict a healthy node in about half
// of such reads (found by a README drill).
func TestAFailureAtTheDeadlineIsATimeoutToTheOutcomeReporter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := instantCluster(t)
		reps, _, err := cl.Locate(tbl, key)
		require.NoError(t, err)
		slow := reps[2].Endpoint().ID
		det, err := ring.NewDetector(ring.DetectorConfig{})
		require.NoError(t, err)
		defer det.Close()
		log := &outcomeErrs{next: det, errs: map[string][]error{}}
		c, err := coordinator.New(coordinator.Config{
			Locator:      wrapID(cl, slow, func(r replica.Replica) replica.Replica { return ownDeadlineTransport{r} }),
			Outcomes:     log,
			ReadTimeout:  100 * time.Millisecond,
			DefaultTable: policy(t, "NEVER"),
		})
		require.NoError(t, err)
		defer c.Close()
		const reads = 20
		for i := range reads {
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			var timeout *consistency.ReadTimeoutError
			require.True(t, errors.As(err, &timeout), "read %d: %v", i, err)
			for _, rq := range res.Trace.Requests {
				if rq.Endpoint == slow {
					assert.Equal(t, coordinator.Pending, rq.Outcome, "read %d", i)
				}
			}
			synctest.Wait() // the slow replica's outcome is told
		}
		assert.True(t, det.IsAlive(reps[2].Endpoint()), "the detector convicted the slow replica")
		require.Len(t, log.of(slow), reads)
		for i, err := range log.of(slow) {
			assert.ErrorIs(t, err, context.DeadlineExceeded, "read %d", i)
			assert.False(t, replica.IsConnectionFailure(err), "read %d: %v", i, err)
		}
	})
}
