package coordinator_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// applyGated is a replica whose repair writes wait for gate (or their
// context) and then apply.
type applyGated struct {
	replica.Replica
	gate <-chan struct{}
}

func (a applyGated) Apply(ctx context.Context, m replica.Mutation) error {
	select {
	case <-a.gate:
		return a.Replica.Apply(ctx, m)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// livenessFunc adapts a function to coordinator.Liveness.
type livenessFunc func(replica.Endpoint) bool

func (f livenessFunc) IsAlive(ep replica.Endpoint) bool { return f(ep) }

// A Liveness view asked on an ASYNC repair worker whether the repair's
// replica is still up that calls Close makes Close wait the read timeout:
// Close waits for a worker vetting a repair, to drop it and tell the
// Observer (TestCloseDropsTheRepairAWorkerIsVetting), and cannot tell the
// view that called it from one that is slow. Liveness's doc says so; the
// wait is bounded, Close returns, and the repair is counted abandoned,
// never written, with the metrics final.
func TestCloseFromALivenessViewOnARepairWorkerWaitsTheReadTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
		gate := make(chan struct{})
		var c *coordinator.Coordinator
		var armed atomic.Bool
		var once sync.Once
		closeTook := make(chan time.Duration, 1)
		c, err := coordinator.New(coordinator.Config{
			Locator: wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return applyGated{r, gate} }),
			Liveness: livenessFunc(func(ep replica.Endpoint) bool {
				if armed.Load() {
					once.Do(func() {
						start := time.Now()
						_ = c.Close()
						closeTook <- time.Since(start)
					})
				}
				return e.cluster.IsAlive(ep)
			}),
			RepairWorkers: 1, ReadTimeout: 30 * time.Second,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		// B is stale: the one worker waits in its Apply.
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		// B and C are stale now: their repairs wait in the queue.
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v3", 30), A))
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		synctest.Wait()
		// From now on only the worker asks the view: it closes as the
		// worker, B's first write applied, vets the next repair.
		armed.Store(true)
		close(gate)
		assert.Equal(t, 30*time.Second, <-closeTook)
		m := c.Metrics().Total
		synctest.Wait()
		assert.Equal(t, int64(3), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsAcked, "%+v", m)
		assert.Equal(t, int64(1), m.RepairsAbandoned, "the one vetted, %+v", m)
		assert.Equal(t, int64(1), m.RepairsDropped, "the one queued, %+v", m)
		assert.Equal(t, counterValues(m), counterValues(c.Metrics().Total), "metrics changed after Close returned")
	})
}
