package coordinator_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// errSpy records what a replica's context reported when the caller's
// cancellation reached it.
type errSpy struct {
	replica.Replica
	mu   *sync.Mutex
	errs *[]error
}

func (s errSpy) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	<-ctx.Done()
	s.mu.Lock()
	*s.errs = append(*s.errs, ctx.Err())
	s.mu.Unlock()
	return replica.Response{}, ctx.Err()
}

// A caller that cancels its context with context.DeadlineExceeded as the
// cause (errgroup.WithContext does so when a sibling task returns its own
// timeout) has cancelled the read, long before the read's deadline. The
// read must end as a cancellation, count as one, and its replicas must not
// be told the read's deadline passed.
func TestACallersDeadlineExceededCauseIsACancellation(t *testing.T) {
	for _, name := range []string{"cause=DeadlineExceeded", "cause=errShutdown (control)"} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := threeNodes(t)
				var mu sync.Mutex
				var errs []error
				loc := wrapping(cl, 3, func(r replica.Replica) replica.Replica { return errSpy{r, &mu, &errs} })
				e := newEnvOn(t, cl, coordinator.Config{Locator: loc, ReadTimeout: time.Second, DefaultTable: policy(t, "NEVER")})
				ctx, cancel := context.WithCancelCause(context.Background())
				cause := context.DeadlineExceeded
				if name != "cause=DeadlineExceeded" {
					cause = errShutdown
				}
				time.AfterFunc(ms(10), func() { cancel(cause) })
				start := time.Now()
				res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				took := time.Since(start)
				settle()
				t.Logf("err=%v took=%v", err, took)
				var rf *consistency.ReadFailureError
				var rt *consistency.ReadTimeoutError
				assert.NotErrorAs(t, err, &rf, "a cancelled read is not a replica failure")
				assert.NotErrorAs(t, err, &rt, "a cancelled read is not a timeout")
				assert.ErrorIs(t, err, context.Canceled)
				m := e.c.Metrics().Total
				assert.Equal(t, int64(1), m.Cancelled, "Cancelled")
				assert.Zero(t, m.Failures, "Failures")
				assert.Zero(t, m.Timeouts, "Timeouts")
				for _, rm := range e.c.Metrics().Replicas {
					assert.Zero(t, rm.Timeouts, "%s: Timeouts (misses %d)", rm.Endpoint.ID, rm.Misses)
					assert.Zero(t, rm.Misses, "%s: Misses", rm.Endpoint.ID)
				}
				for _, r := range res.Trace.Requests {
					assert.Equal(t, coordinator.Pending, r.Outcome, "request to %s: %v", r.Endpoint, r.Err)
				}
				mu.Lock()
				defer mu.Unlock()
				for _, e := range errs {
					assert.Equal(t, context.Canceled, e, "the replica's context said the read's 1 s deadline passed at 10 ms")
				}
			})
		})
	}
}
