package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// drainEnv is newStaleEnv's cluster (B stale) read through a coordinator
// whose one ASYNC worker writes to B through wrap.
func drainEnv(t *testing.T, wrap func(replica.Replica) replica.Replica) (*env, *coordinator.Coordinator) {
	t.Helper()
	e, _ := newStaleEnv(t, repair.Async)
	c, err := coordinator.New(coordinator.Config{
		Locator: wrapID(e.cluster, B, wrap), Liveness: e.cluster, RepairWorkers: 1,
		DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
	})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return e, c
}

// DrainRepairs returns once the repairs queued and being written are
// written, for a shutdown that keeps them, where Close would drop the
// queued one.
func TestDrainRepairsWaitsForQueuedAndRunningRepairs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		e, c := drainEnv(t, func(r replica.Replica) replica.Replica { return gatedApply{r, release} })
		for range 2 {
			_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			require.NoError(t, err)
			synctest.Wait() // one repair in B's Apply, one queued
		}
		drained := make(chan error, 1)
		go func() { drained <- c.DrainRepairs(context.Background()) }()
		synctest.Wait()
		select {
		case err := <-drained:
			t.Fatalf("returned with both repairs pending: %v", err)
		default:
		}
		close(release)
		require.NoError(t, <-drained)
		m := c.Metrics().Total
		assert.Equal(t, int64(2), m.RepairsAcked, "both written when it returned")
		assert.Equal(t, int64(2), e.stats(B).Mutations)
		require.NoError(t, c.DrainRepairs(context.Background()), "nothing pending: at once")
	})
}

// DrainRepairs ends with its context, whose error it returns, while a
// repair is still being written.
func TestDrainRepairsEndsWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, c := drainEnv(t, func(r replica.Replica) replica.Replica { return r })
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(time.Second)})
		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), ms(10))
		defer cancel()
		start := time.Now()
		assert.ErrorIs(t, c.DrainRepairs(ctx), context.DeadlineExceeded)
		assert.Equal(t, ms(10), time.Since(start))
	})
}

// A coordinator that never repaired in the background, and one closed with
// a repair whose replica ignores its context (Close gives it up, counted
// abandoned), have nothing pending.
func TestDrainRepairsWithNothingPending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		done, cancel := context.WithCancel(context.Background())
		cancel()
		release := make(chan struct{})
		_, c := drainEnv(t, func(r replica.Replica) replica.Replica { return deafApply{r, release} })
		require.NoError(t, c.DrainRepairs(done))

		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		synctest.Wait()
		require.ErrorIs(t, c.DrainRepairs(done), context.Canceled, "B's write is running")
		require.NoError(t, c.Close())
		assert.Equal(t, int64(1), c.Metrics().Total.RepairsAbandoned)
		assert.NoError(t, c.DrainRepairs(done), "Close gave the write up")
		close(release)
		synctest.Wait()
	})
}

// deafApply's repair writes ignore their context, and wait until release
// is closed.
type deafApply struct {
	replica.Replica
	release <-chan struct{}
}

func (d deafApply) Apply(ctx context.Context, m replica.Mutation) error {
	<-d.release
	return d.Replica.Apply(ctx, m)
}
