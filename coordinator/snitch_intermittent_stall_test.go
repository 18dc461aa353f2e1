package coordinator_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// stallsEveryTenth is a replica whose every tenth read hangs until its
// context ends, and returns the context's error; the others are the
// replica's own.
type stallsEveryTenth struct {
	replica.Replica
	n *atomic.Int64
}

func (s stallsEveryTenth) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if s.n.Add(1)%10 == 0 {
		<-ctx.Done()
		return replica.Response{}, ctx.Err()
	}
	return s.Replica.Read(ctx, cmd)
}

// A replica that answers fast but lets one request in ten hang to the read
// timeout takes the timeout as a latency sample, as Cassandra's snitch
// takes an expired callback's timeout (RequestCallbacks.onExpired), also
// when it answered requests sent later before the timeout: under
// concurrent reads it always has, and a rule that skipped such a sample
// kept it first for every read, so one read in ten timed out for as long as
// it stalled (59 of 600 reads in 6 s, where two time out with the sample).
func TestAReplicaThatStallsIntermittentlyLosesItsRank(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		e.c.Close()
		e.behave(t, B, constant(ms(5)))
		e.behave(t, C, constant(ms(5)))
		n := new(atomic.Int64)
		c, err := coordinator.New(coordinator.Config{ReadTimeout: ms(100), DefaultTable: policy(t, "NEVER"),
			Liveness: e.cluster,
			Locator: wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica {
				return stallsEveryTenth{r, n}
			})})
		if !assert.NoError(t, err) {
			return
		}
		defer c.Close()
		var timeouts atomic.Int64
		var wg sync.WaitGroup
		for range 600 { // 6 s, less than Snitch.ResetInterval: no probe
			wg.Go(func() {
				_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
				var timeout *consistency.ReadTimeoutError
				if errors.As(err, &timeout) {
					timeouts.Add(1)
				} else {
					assert.NoError(t, err)
				}
			})
			time.Sleep(ms(10))
		}
		wg.Wait()
		assert.Less(t, timeouts.Load(), int64(10), "reads timed out on A's stalls")
	})
}
