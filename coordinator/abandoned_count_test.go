package coordinator_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// Replicas that answer at once and never hang, read at ONE without
// speculation, so that no read ever gives up on a request: nothing is ever
// abandoned, and no request may be refused for a backlog, whatever the cap
// (1 here). But a read that returns before its worker has let go of the
// answered call (between deliver and dropByWorker, calls.go) counts that
// call as abandoned in dropByRead, and a concurrent read to the same
// replica is then refused with a *BacklogError. The race needs two
// goroutines running at once; on one core it may pass. The reads get a
// minute: on the real clock, a host that held one up past the default 5 s
// would have it give up on its request, which is the host's doing.
func TestAnsweredCallsAreNotCountedAbandoned(t *testing.T) {
	cl := instantCluster(t)
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, MaxAbandonedPerReplica: 1,
		DefaultTable: policy(t, "NEVER"), ReadTimeout: time.Minute})
	require.NoError(t, err)
	defer c.Close()
	var refused, pending atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20000 {
				res, _ := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
				for _, rq := range res.Trace.Requests {
					var b *coordinator.BacklogError
					if errors.As(rq.Err, &b) {
						refused.Add(1)
					}
					if rq.Outcome == coordinator.Pending {
						pending.Add(1)
					}
				}
			}
		})
	}
	wg.Wait()
	require.Zero(t, pending.Load(), "no read gave up on a request")
	assert.Zero(t, refused.Load(), "requests to healthy replicas refused for a backlog of answered calls")
}
