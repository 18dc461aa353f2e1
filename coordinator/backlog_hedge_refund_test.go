package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
)

// C is wedged at its backlog cap and, in the static order, the only
// replica a QUORUM read can hedge to. B is slow, so every read's hedge is
// due at 5 ms and goes to C, which refuses it unsent: nothing is sent, so
// nothing is drawn from the budgets, which a retry.Executor may share.
func TestAHedgeRefusedUnsentDrawsOnNoBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared, err := retry.NewBudget(retry.BudgetConfig{MinPerSecond: 1})
		require.NoError(t, err)
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), MaxAbandonedPerReplica: 1, Budget: shared,
			DefaultTable: policy(t, "5ms"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		e.hangs(t, C)
		defer drain()
		e.behave(t, B, constant(ms(20)))
		_, _, err = e.read(consistency.Quorum) // its hedge to C is abandoned: C is at its cap
		require.NoError(t, err)
		settle()
		before := shared.Available(time.Now())

		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		require.True(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		var backlog *coordinator.BacklogError
		require.ErrorAs(t, res.Trace.Requests[2].Err, &backlog, "the hedge to C was refused\n%s", res.Trace)
		assert.Equal(t, before, shared.Available(time.Now()), "a hedge that was not sent spent the shared budget")
	})
}
