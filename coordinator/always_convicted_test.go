package coordinator_test

import (
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

// convictedAfter is a Liveness that holds id up for its first n questions
// about it, and down after: a failure detector convicting it mid-read.
type convictedAfter struct {
	id    string
	n     int64
	asked atomic.Int64
}

func (l *convictedAfter) IsAlive(ep replica.Endpoint) bool {
	return ep.ID != l.id || l.asked.Add(1) <= l.n
}

// C, the only replica left for ALWAYS's extra request, is convicted at
// one of the read's questions about it. Whenever that falls after the
// request was allowed and before it went out, nothing was sent: nothing is
// drawn on the budgets, and the trace says there was no candidate.
func TestAlwaysGivesBackWhatItDrewWhenItsTargetIsConvicted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		shared, err := retry.NewBudget(retry.BudgetConfig{MinPerSecond: 1})
		require.NoError(t, err)
		for n := int64(1); n <= 4; n++ {
			live := &convictedAfter{id: C, n: n}
			c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: live, Budget: shared,
				DefaultTable: policy(t, "ALWAYS"), Snitch: coordinator.SnitchConfig{Disabled: true}})
			require.NoError(t, err)
			before := shared.Available(time.Now())
			res, err := c.Read(t.Context(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
			require.NoError(t, err)
			settle()
			if !res.Trace.Hedge.Fired {
				assert.Equal(t, before, shared.Available(time.Now()), "n=%d: no extra request went out\n%s", n, res.Trace)
				assert.Equal(t, coordinator.NoCandidate, res.Trace.Hedge.Suppressed, "n=%d: and the trace says why", n)
			}
			c.Close()
		}
	})
}
