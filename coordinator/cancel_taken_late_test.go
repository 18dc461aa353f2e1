package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// failAfter is a replica whose reads fail after a delay with an error of
// its own, not a context's.
type failAfter struct {
	replica.Replica
	after time.Duration
}

var errDiskFailure = errors.New("replica: disk failure")

func (r failAfter) Read(ctx context.Context, _ replica.Command) (replica.Response, error) {
	select {
	case <-time.After(r.after):
		return replica.Response{}, errDiskFailure
	case <-ctx.Done():
		return replica.Response{}, ctx.Err()
	}
}

// B fails at 10 ms with its own error, before the caller cancels at 20 ms,
// while the read's goroutine waits in a slow Liveness view asked for the
// hedge due at 5 ms; back at 25 ms, the read finds both B's failure and
// the caller gone, and takes either first (a select's choice). Either way
// B failed, at 10 ms, as it does when the caller's deadline ends the read
// instead (TestAFailureThatArrivedBeforeTheDeadlineIsFailedWhenTakenAfterIt):
// it was left pending when the read saw the cancellation first.
func TestAFailureThatArrivedBeforeTheCancellationIsFailedWhenTakenAfterIt(t *testing.T) {
	for trial := range 20 {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { time.Sleep(ms(20)); cancel() }()
			res, err := readHeldInLiveness(t, ctx, func(r replica.Replica) replica.Replica { return failAfter{r, ms(10)} })
			require.ErrorIs(t, err, context.Canceled)
			b := requestTo(t, res, B)
			assert.Equal(t, coordinator.Failed, b.Outcome, "trial %d:\n%v", trial, res.Trace)
			assert.ErrorIs(t, b.Err, errDiskFailure)
			assert.Equal(t, ms(10), b.Done-b.Sent)
		})
	}
}
