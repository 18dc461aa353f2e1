package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// With the snitch disabled (the locator's order), a wedged local replica
// at its backlog cap is still a contact of every QUORUM read over two
// datacenters (the local one comes first), and its request is refused
// unsent. The hedge that replaces it sends no more than
// a healthy read does, so a spent budget must not stop it: before, with
// the budget spent, every such read failed naming the BacklogError while
// five healthy replicas were up (78 % of QUORUM reads in a drill over
// 3 DCs at 100 reads a second).
func TestARefusedRequestIsReplacedWhateverTheBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{
			DefaultTable:           policy(t, "5ms"),
			ReadTimeout:            ms(50),
			MaxAbandonedPerReplica: 1,
			// The locator's order: ranked, a replica at its cap comes last,
			// and is no contact to refuse.
			Snitch:      coordinator.SnitchConfig{Disabled: true},
			HedgeBudget: coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1}, // no hedge ever allowed
		})
		e.hangs(t, d1n1)
		_, _, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout, "no budget to hedge around the wedged replica: the first read times out")

		before := e.totalReads()
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err, "the refused request is replaced\n%s", res.Trace)
		assert.Equal(t, 1, refusedIn(res.Trace), "the wedged replica's request was refused\n%s", res.Trace)
		assert.True(t, res.Trace.Hedge.Fired, "and replaced")
		settle()
		assert.Equal(t, int64(4), e.totalReads()-before, "as many requests sent as a healthy QUORUM read sends")
		tm, _ := e.c.TableMetrics(tbl)
		assert.Equal(t, int64(1), tm.SuppressedBudget, "only the first read's hedge was suppressed")

		e.behave(t, d1n1, constant(ms(1)))
		time.Sleep(2 * time.Hour) // the wedged requests return
	})
}
