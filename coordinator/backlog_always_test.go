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

// Under ALWAYS a spent budget suppresses the up-front extra request, the
// round's speculative action; a contact then refused for its replica's
// backlog must still be replaced, free, as under any other policy.
func TestARefusedRequestIsReplacedWhenAlwaysWasSuppressed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{
			DefaultTable:           policy(t, "ALWAYS"),
			ReadTimeout:            ms(50),
			MaxAbandonedPerReplica: 1,
			// The locator's order: ranked, a replica at its cap comes last,
			// and is no contact to refuse.
			Snitch:      coordinator.SnitchConfig{Disabled: true},
			HedgeBudget: coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1}, // no hedge ever allowed
		})
		e.hangs(t, d1n1)
		defer func() {
			e.behave(t, d1n1, constant(ms(1)))
			time.Sleep(2 * time.Hour) // the wedged requests return
		}()
		_, _, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout, "no budget for ALWAYS's extra request: the first read times out")

		before := e.totalReads()
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err, "the refused request is replaced\n%s", res.Trace)
		assert.Equal(t, 1, refusedIn(res.Trace), "the wedged replica's request was refused\n%s", res.Trace)
		assert.True(t, res.Trace.Hedge.Fired, "and replaced")
		assert.Equal(t, coordinator.NotSuppressed, res.Trace.Hedge.Suppressed)
		settle()
		assert.Equal(t, int64(4), e.totalReads()-before, "as many requests sent as a healthy QUORUM read sends")
		tm, _ := e.c.TableMetrics(tbl)
		assert.Equal(t, int64(2), tm.SuppressedBudget, "each read's extra request was suppressed once")
		assert.Equal(t, int64(1), tm.SpeculativeRetries, "the replacement is the only one sent")
	})
}
