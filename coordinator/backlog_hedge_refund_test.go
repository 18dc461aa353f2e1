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
	"github.com/readpath/readpath/coordinator/retry"
)

// capMidRead starts, at once, a read at ALL that C (hung) makes time out
// after ReadTimeout, leaving C at a backlog cap of one, and returns once
// after elapsed: a read started then finds C below its cap when it
// checks, and at it by the time its request goes out, if live holds its
// goroutine over the moment, so the request is refused unsent.
func capMidRead(t *testing.T, c *coordinator.Coordinator, elapsed time.Duration) {
	t.Helper()
	go func() {
		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var timeout *consistency.ReadTimeoutError
		assert.ErrorAs(t, err, &timeout)
	}()
	time.Sleep(elapsed)
}

// C is the only replica a QUORUM read can hedge to, and reaches its
// backlog cap between the read's choice of it and the hedge's sending:
// the hedge is refused unsent, so nothing is drawn from the budgets, which
// a retry.Executor may share.
func TestAHedgeRefusedUnsentDrawsOnNoBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared, err := retry.NewBudget(retry.BudgetConfig{MinPerSecond: 1})
		require.NoError(t, err)
		e := newEnv(t, coordinator.Config{})
		live := &slowToAsk{id: C}
		c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: live, ReadTimeout: ms(10),
			MaxAbandonedPerReplica: 1, Budget: shared, DefaultTable: policy(t, "5ms"),
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()
		e.hangs(t, C)
		defer drain()
		e.behave(t, B, constant(ms(8)))
		before := shared.Available(time.Now())

		capMidRead(t, c, ms(4.5)) // the cap at 10 ms: the hedge at 9.5 asks live until 10.5
		live.armed.Store(true)
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		live.armed.Store(false)
		require.NoError(t, err)
		require.True(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assert.Equal(t, 1, refusedIn(res.Trace), "the hedge to C was refused\n%s", res.Trace)
		assert.Equal(t, before, shared.Available(time.Now()), "a hedge that was not sent spent the shared budget")
	})
}

// A replica at its backlog cap is no speculation target: a hedge to it
// would be refused unsent, and the round's one speculative action lost,
// where another replica could take it. Five replicas, D wedged at its cap
// and first in hedge order at QUORUM: the hedge goes to E.
func TestAHedgeSkipsAReplicaAtItsBacklogCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := fiveNodes(t)
		e := newEnvOn(t, cl, coordinator.Config{ReadTimeout: ms(50), MaxAbandonedPerReplica: 1,
			DefaultTable: policy(t, "5ms"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		e.hangs(t, D)
		defer drain()
		e.timeOut(t, 1, consistency.All) // D now holds one abandoned request: its cap
		settle()
		e.behave(t, B, constant(ms(20)))

		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		require.True(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assert.Equal(t, E, res.Trace.Hedge.To, "%s", res.Trace)
		assert.Zero(t, refusedIn(res.Trace), "%s", res.Trace)
	})
}
