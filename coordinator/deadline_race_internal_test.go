package coordinator

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// A request that fails at or after the read's deadline, taken before the
// read's timer has run (a replica that timed its own context to the same
// deadline, its timer first), times the read out, as it does when the
// timer runs first: a context error is a request the deadline cut off,
// any other error is a failure of a read that timed out. One that fails
// sooner is the replica's own failure.
func TestAFailureAtTheDeadlineBeforeTheTimerTimesTheReadOut(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		early   time.Duration // how long before the deadline it failed
		timeout bool
		outcome Outcome
	}{
		{"its deadline at the read's", context.DeadlineExceeded, 0, true, Pending},
		{"a failure at the deadline", replica.ErrConnectionFailed, 0, true, Failed},
		{"its deadline a nanosecond sooner", context.DeadlineExceeded, time.Nanosecond, false, Failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				errs := func(_ *read, i int) error {
					if i == 2 {
						return tc.err
					}
					return nil
				}
				r := roundSent(time.Hour, 3, []RequestKind{KindData, KindDigest, KindDigest}, errs)
				r.req.Level = consistency.All
				for _, k := range r.calls {
					k.at = r.ctx.deadline.Add(-time.Second)
				}
				r.calls[2].at = r.ctx.deadline.Add(-tc.early)
				r.rd.ch <- 0
				r.rd.ch <- 1
				r.rd.ch <- 2
				time.Sleep(time.Until(r.calls[2].at)) // the clock at the failure

				err := gatherAndEnd(r)
				var timeout *consistency.ReadTimeoutError
				var failure *consistency.ReadFailureError
				if tc.timeout {
					require.True(t, errors.As(err, &timeout), "%v", err)
					require.Equal(t, consistency.ReadTimeoutError{Level: consistency.All, BlockFor: 3, Received: 2,
						DataPresent: true, Cause: context.DeadlineExceeded}, *timeout)
				} else {
					require.True(t, errors.As(err, &failure), "%v", err)
					require.Equal(t, 1, failure.Failures)
					require.ErrorIs(t, failure.Reasons["c"], context.DeadlineExceeded)
				}
				require.Equal(t, tc.outcome, r.trace.Requests[2].Outcome)
			})
		})
	}
}
