package coordinator_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// ownCancelAt is a replica whose reads fail after a delay with an error of
// its own wrapping context.Canceled (a stream its server reset), while
// their context still runs.
type ownCancelAt struct {
	replica.Replica
	after time.Duration
}

var errStreamReset = fmt.Errorf("rpc: stream reset by the server: %w", context.Canceled)

func (r ownCancelAt) Read(ctx context.Context, _ replica.Command) (replica.Response, error) {
	select {
	case <-time.After(r.after):
		return replica.Response{}, errStreamReset
	case <-ctx.Done():
		return replica.Response{}, ctx.Err()
	}
}

// A request is pending when the read ended before its answer arrived, not
// when the read took it: B's own context.Canceled arrives at 10 ms, before
// the caller's 20 ms deadline, while the read's goroutine waits in a slow Liveness
// view asked for the hedge due at 5 ms; the read takes B's failure only at
// 25 ms, after its deadline. It is B's failure, at 10 ms, as it is taken on
// time, not a request the read's end cut off.
func TestAFailureThatArrivedBeforeTheDeadlineIsFailedWhenTakenAfterIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), ms(20)) // the caller's deadline
		defer cancel()
		res, err := readHeldInLiveness(t, ctx, func(r replica.Replica) replica.Replica { return ownCancelAt{r, ms(10)} })
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		b := requestTo(t, res, B)
		assert.Equal(t, coordinator.Failed, b.Outcome, "%v", res.Trace)
		assert.ErrorIs(t, b.Err, errStreamReset)
		assert.Equal(t, ms(10), b.Done-b.Sent)
	})
}

// readHeldInLiveness reads key at QUORUM under ctx, B's replica wrapped,
// hedging at 5 ms, while a Liveness view asked for the hedge holds the
// read's goroutine until 25 ms.
func readHeldInLiveness(t *testing.T, ctx context.Context, wrapB func(replica.Replica) replica.Replica) (coordinator.Result, error) {
	e := newEnv(t, coordinator.Config{})
	var hedging atomic.Bool
	c, err := coordinator.New(coordinator.Config{
		Locator: wrapID(e.cluster, B, wrapB),
		Liveness: livenessFunc(func(ep replica.Endpoint) bool {
			if hedging.Load() {
				time.Sleep(ms(20)) // until 25 ms
			}
			return e.cluster.IsAlive(ep)
		}),
		DefaultTable: policy(t, "5ms"),
	})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	go func() { time.Sleep(ms(2)); hedging.Store(true) }() // after the plan
	return c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
}

// requestTo returns the trace of the read's request to id.
func requestTo(t *testing.T, res coordinator.Result, id string) coordinator.RequestTrace {
	for _, rt := range res.Trace.Requests {
		if rt.Endpoint == id {
			return rt
		}
	}
	require.FailNow(t, "no request to "+id, "%v", res.Trace)
	return coordinator.RequestTrace{}
}
