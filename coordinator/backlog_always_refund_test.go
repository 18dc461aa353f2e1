package coordinator_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica"
)

// slowOnCall is a Liveness that takes 10 ms to answer its call-th
// question about one replica, counted once armed.
type slowOnCall struct {
	id    string
	call  int32
	armed atomic.Bool
	calls atomic.Int32
}

func (l *slowOnCall) IsAlive(ep replica.Endpoint) bool {
	if ep.ID == l.id && l.armed.Load() && l.calls.Add(1) == l.call {
		time.Sleep(ms(10))
	}
	return true
}

// Under ALWAYS the extra request draws on the budgets; a stand-in for a
// refused contact draws nothing, and when it is refused in turn (its
// replica reached its cap between the read's choice of it and its
// sending) it must not refund the extra's draw: the extra went out. It
// did, so the shared budget, which a retry.Executor may share, lost
// nothing for it (found by review).
func TestARefusedStandInRefundsNoDrawOfARequestSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared, err := retry.NewBudget(retry.BudgetConfig{MinPerSecond: 1})
		require.NoError(t, err)
		cl := fiveNodes(t)
		const other = "other" // E's table, where a read waits on it
		require.NoError(t, cl.Pin(other, key, E, A, B, C, D))
		require.NoError(t, cl.Seed(other, row(key, "v1", 10)))
		e := newEnvOn(t, cl, coordinator.Config{})
		// Planning asks about E first; whether stand-ins can complete the
		// round, before the extra request and before the stand-in, next;
		// the stand-in's choice fourth.
		live := &slowOnCall{id: E, call: 4}
		c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: live, ReadTimeout: ms(50),
			MaxAbandonedPerReplica: 1, Budget: shared, HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
			DefaultTable: policy(t, "NEVER"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, c.SetTableOptions(tbl, policy(t, "ALWAYS")))
		e.c = c
		defer drain()

		e.hangs(t, A)
		e.hangs(t, B)
		e.timeOut(t, 1, consistency.All) // A and B at their cap, at 50 ms
		e.hangs(t, E)
		go func() { // E at its cap at 100 ms
			_, err := c.Read(context.Background(), coordinator.Request{Table: other, Key: key, Level: consistency.One})
			var timeout *consistency.ReadTimeoutError
			assert.ErrorAs(t, err, &timeout)
		}()
		time.Sleep(ms(45))
		before := shared.Available(time.Now())
		live.armed.Store(true)
		// A and B refused, C asked, D the extra request; the stand-in's
		// choice of E asks live from 95 ms to 105.
		res, _, _ := e.read(consistency.Quorum)
		require.True(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assert.Equal(t, 3, refusedIn(res.Trace), "A, B and the stand-in to E were refused\n%s", res.Trace)
		assert.Equal(t, before-1, shared.Available(time.Now()), "the extra request to D went out and spent one")
	})
}
