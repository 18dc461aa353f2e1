package coordinator_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// causeSpy records what a replica's context says when it ends, and again
// linger later, when the replica returns (past the read's deadline, for a
// replica slow to notice).
type causeSpy struct {
	replica.Replica
	linger time.Duration
	mu     *sync.Mutex
	errs   *[][2]error
}

func (s causeSpy) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	<-ctx.Done()
	first := ctx.Err()
	time.Sleep(s.linger)
	s.mu.Lock()
	*s.errs = append(*s.errs, [2]error{first, ctx.Err()})
	s.mu.Unlock()
	return replica.Response{}, ctx.Err()
}

// A caller that cancels its context with context.DeadlineExceeded as the
// cause (errgroup.WithContext does so when a sibling task returns its own
// timeout) has cancelled the read, long before the read's deadline: the
// read ends as a cancellation and counts as one, and its requests'
// contexts say Canceled, then and for good (context.Context's contract),
// so no replica is charged a timeout however late it returns. They said
// DeadlineExceeded at once; then, mended by reading the clock, turned to
// it once the read's deadline passed. (Found by reviews.)
func TestACallersDeadlineExceededCauseIsACancellation(t *testing.T) {
	for _, cause := range []error{context.DeadlineExceeded, errShutdown} {
		for _, linger := range []time.Duration{0, 2 * time.Second} {
			t.Run(fmt.Sprintf("%v/returns %v later", cause, linger), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { cancelledWith(t, cause, linger) })
			})
		}
	}
}

func cancelledWith(t *testing.T, cause error, linger time.Duration) {
	cl := threeNodes(t)
	var mu sync.Mutex
	var errs [][2]error
	loc := wrapping(cl, 3, func(r replica.Replica) replica.Replica { return causeSpy{r, linger, &mu, &errs} })
	e := newEnvOn(t, cl, coordinator.Config{Locator: loc, ReadTimeout: time.Second, DefaultTable: policy(t, "NEVER")})
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(ms(10), func() { cancel(cause) })
	res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	var rf *consistency.ReadFailureError
	var rt *consistency.ReadTimeoutError
	assert.NotErrorAs(t, err, &rf, "a cancelled read is not a replica failure")
	assert.NotErrorAs(t, err, &rt, "a cancelled read is not a timeout")
	assert.ErrorIs(t, err, context.Canceled)
	for _, r := range res.Trace.Requests {
		assert.Equal(t, coordinator.Pending, r.Outcome, "request to %s: %v", r.Endpoint, r.Err)
	}
	time.Sleep(linger + time.Second)
	settle()
	m := e.c.Metrics().Total
	assert.Equal(t, int64(1), m.Cancelled, "Cancelled")
	assert.Zero(t, m.Failures, "Failures")
	assert.Zero(t, m.Timeouts, "Timeouts")
	for _, rm := range e.c.Metrics().Replicas {
		assert.Zero(t, rm.Timeouts, "%s: Timeouts (misses %d)", rm.Endpoint.ID, rm.Misses)
		assert.Zero(t, rm.Misses, "%s: Misses", rm.Endpoint.ID)
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, errs, 2)
	for _, p := range errs {
		assert.Equal(t, [2]error{context.Canceled, context.Canceled}, p, "what the replica's context said at 10 ms and on return")
	}
}
