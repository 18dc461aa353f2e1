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

// lateSpy records what its context said when it ended and once more when
// the replica returns, past the read's deadline.
type lateSpy struct {
	replica.Replica
	mu   *sync.Mutex
	errs *[][2]error
}

func (s lateSpy) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	<-ctx.Done()
	first := ctx.Err()
	time.Sleep(2 * time.Second) // a replica slow to notice, past the read's 1 s deadline
	second := ctx.Err()
	s.mu.Lock()
	*s.errs = append(*s.errs, [2]error{first, second})
	s.mu.Unlock()
	return replica.Response{}, second
}

// A request's context's Err does not change once non-nil (context.Context's
// contract), and a request of a read its caller cancelled at 10 ms is not a
// timeout of its replica however late the replica returns, whatever the
// caller's cause: with DeadlineExceeded, Err turned from Canceled to
// DeadlineExceeded once the read's deadline passed, and the replicas were
// charged timeouts. (Found by a review.)
func TestARequestsErrStaysWhateverTheCallersCause(t *testing.T) {
	for _, cause := range []error{context.DeadlineExceeded, errShutdown} {
		t.Run(cause.Error(), func(t *testing.T) { errStays(t, cause) })
	}
}

func errStays(t *testing.T, cause error) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		var mu sync.Mutex
		var errs [][2]error
		loc := wrapping(cl, 3, func(r replica.Replica) replica.Replica { return lateSpy{r, &mu, &errs} })
		e := newEnvOn(t, cl, coordinator.Config{Locator: loc, ReadTimeout: time.Second, DefaultTable: policy(t, "NEVER")})
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(ms(10), func() { cancel(cause) })
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.ErrorIs(t, err, context.Canceled)
		time.Sleep(5 * time.Second)
		settle()
		mu.Lock()
		for _, p := range errs {
			assert.Equal(t, p[0], p[1], "ctx.Err() changed from %v to %v", p[0], p[1])
		}
		mu.Unlock()
		for _, rm := range e.c.Metrics().Replicas {
			assert.Zero(t, rm.Timeouts, "%s: Timeouts (misses %d)", rm.Endpoint.ID, rm.Misses)
		}
	})
}
