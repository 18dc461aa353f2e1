package coordinator

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// A request that fails once its read's deadline has passed is a timeout,
// and ends the read's context as the read's timer would, though that timer
// has not run yet; one that fails sooner keeps its error, and an answer
// is no failure.
func TestCutShortJudgesAFailureByTheDeadline(t *testing.T) {
	past := newReadContext(context.Background(), time.Now().Add(-time.Nanosecond))
	require.ErrorIs(t, cutShort(past, replica.ErrConnectionFailed), context.DeadlineExceeded)
	require.ErrorIs(t, past.Err(), context.DeadlineExceeded, "the read's context ended")

	future := newReadContext(context.Background(), time.Now().Add(time.Hour))
	defer future.cancel(nil)
	require.ErrorIs(t, cutShort(future, replica.ErrConnectionFailed), replica.ErrConnectionFailed)
	require.NoError(t, future.Err())

	answered := newReadContext(context.Background(), time.Now().Add(-time.Nanosecond))
	require.NoError(t, cutShort(answered, nil))
	require.NoError(t, answered.Err(), "an answer ends nothing")
}
