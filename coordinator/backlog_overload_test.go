package coordinator_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// The hedge that replaces a request refused for its replica's backlog
// passes the overload switch as it passes the budget: it sends no more
// than a healthy read. Two QUORUM reads at once, over MaxInFlight 1, each
// find the wedged local replica at its cap and still complete, at once.
func TestARefusedRequestIsReplacedWhenOverloaded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{
			DefaultTable:           policy(t, "5ms"),
			ReadTimeout:            ms(50),
			MaxAbandonedPerReplica: 1,
			// The locator's order: ranked, a replica at its cap comes last,
			// and is no contact to refuse.
			Snitch:      coordinator.SnitchConfig{Disabled: true},
			MaxInFlight: 1,
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
		})
		e.hangs(t, d1n1)
		_, _, err := e.read(consistency.Quorum)
		require.NoError(t, err, "alone in flight, the first read hedges around the wedged replica")
		// Its losers that answered as it ended must be back before the two
		// reads plan, or one of them may find a replica busy with an
		// abandoned request the scheduler has not yet run to its end.
		synctest.Wait()

		var wg sync.WaitGroup
		results := make([]coordinator.Result, 2)
		errs := make([]error, 2)
		took := make([]time.Duration, 2)
		for i := range results {
			wg.Go(func() { results[i], took[i], errs[i] = e.read(consistency.Quorum) })
		}
		wg.Wait()
		for i, res := range results {
			require.NoError(t, errs[i], "read %d\n%s", i, res.Trace)
			assert.Equal(t, 1, refusedIn(res.Trace), "read %d: the wedged replica's request was refused\n%s", i, res.Trace)
			assert.True(t, res.Trace.Hedge.Fired, "read %d: and replaced", i)
			assert.Less(t, took[i], ms(5), "read %d: without waiting for a threshold", i)
		}
		tm, _ := e.c.TableMetrics(tbl)
		assert.Zero(t, tm.SuppressedOverload)

		e.behave(t, d1n1, constant(ms(1)))
		time.Sleep(2 * time.Hour) // the wedged requests return
	})
}
