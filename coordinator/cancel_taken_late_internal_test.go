package coordinator

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A replica's own failure, not a context's error, came before the read's
// context ended: cutShort gives a request that returns after that the
// context's error. Waiting on the round's channel when the read sees its
// caller give up (the read's goroutine was held up, or its select took the
// caller's Done over the wake-up the failure sent), it is the replica's
// failure, as it is when taken on time, and as one that arrived before the
// caller's deadline is: not a request the caller's cancellation cut off.
func TestAFailureBeforeTheCallersCancellationIsFailedWhenTakenAfterIt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cancel func(r *read, caller context.CancelFunc)
	}{
		{"caller cancelled", func(_ *read, caller context.CancelFunc) { caller() }},
		{"deadline", reachDeadline},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent, caller := context.WithCancel(context.Background())
			defer caller()
			r := cutOffRead(parent)
			defer r.ctx.cancel(nil)
			own := errors.New("replica: disk failure")
			r.calls[1].err, r.calls[1].at = own, time.Now().Add(-time.Microsecond)
			r.rd.ch <- 1 // B's failure, before the end
			tc.cancel(r, caller)

			r.acceptAnswered()
			rt := r.trace.Requests[1]
			require.Equal(t, Failed, rt.Outcome, "the replica's failure: %v", r.trace)
			assert.ErrorIs(t, rt.Err, own)
			assert.NotZero(t, rt.Done)
			assert.ErrorIs(t, r.reasons["b"], own)
		})
	}
}
