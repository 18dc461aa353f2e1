package coordinator_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// alwaysWithoutBudget is ALWAYS with no hedge ever allowed by the budget,
// a cap of one abandoned request a replica, and the locator's order:
// ranked, a replica at its cap comes last, and is no contact to refuse.
func alwaysWithoutBudget(t *testing.T) coordinator.Config {
	return coordinator.Config{
		DefaultTable:           policy(t, "ALWAYS"),
		ReadTimeout:            ms(50),
		MaxAbandonedPerReplica: 1,
		Snitch:                 coordinator.SnitchConfig{Disabled: true},
		HedgeBudget:            coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1},
	}
}

// Under ALWAYS a spent budget suppresses the up-front extra request, the
// round's speculative action; a contact then refused for its replica's
// backlog must still be replaced, free, as under any other policy.
func TestARefusedRequestIsReplacedWhenAlwaysWasSuppressed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, alwaysWithoutBudget(t))
		e.hangs(t, d1n1)
		defer func() {
			e.behave(t, d1n1, constant(ms(1)))
			time.Sleep(2 * time.Hour) // the wedged requests return
		}()
		first, _, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout, "no budget for ALWAYS's extra request: the first read times out")

		before := e.totalReads()
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err, "the refused request is replaced\n%s", res.Trace)
		assert.Equal(t, 1, refusedIn(res.Trace), "the wedged replica's request was refused\n%s", res.Trace)
		assert.True(t, res.Trace.Hedge.Fired, "and replaced")
		assert.Equal(t, coordinator.SuppressedBudget, res.Trace.Hedge.Suppressed,
			"the extra request the budget held back stays booked, as the metrics count it")
		settle()
		assert.Equal(t, int64(4), e.totalReads()-before, "as many requests sent as a healthy QUORUM read sends")
		tm, _ := e.c.TableMetrics(tbl)
		assert.Equal(t, int64(2), tm.SuppressedBudget, "each read's extra request was suppressed once")
		assert.Equal(t, int64(1), tm.SpeculativeRetries, "the replacement is the only one sent")
		assertSuppressionsTraced(t, tm, first.Trace, res.Trace)
	})
}

// A stand-in that finds too few replicas left, after the budget held back
// ALWAYS's extra request in the same round, books nothing over it: the
// trace keeps the budget, and the table counts that alone, as the trace
// says. It once booked "no candidate" in the trace over the budget and
// counted both, and a scrape's totals no longer added up to the traces.
func TestAStandInFindingTooFewKeepsTheBudgetSuppression(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, alwaysWithoutBudget(t)) // A and B are the contacts
		e.hangs(t, A)
		e.hangs(t, B)
		defer func() {
			e.behave(t, A, constant(ms(1)))
			e.behave(t, B, constant(ms(1)))
			time.Sleep(2 * time.Hour) // the wedged requests return
		}()
		first, _, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout, "A and B hang, and leave a request each abandoned\n%s", first.Trace)

		res, _, err := e.read(consistency.Quorum)
		require.Error(t, err, "A and B refused, C alone cannot stand in for both\n%s", res.Trace)
		assert.Equal(t, 2, refusedIn(res.Trace), "%s", res.Trace)
		assert.False(t, res.Trace.Hedge.Fired, "%s", res.Trace)
		assert.Equal(t, coordinator.SuppressedBudget, res.Trace.Hedge.Suppressed, "the round's first cause stays")
		settle()
		tm, _ := e.c.TableMetrics(tbl)
		assert.Equal(t, int64(2), tm.SuppressedBudget, "each read's extra request, once")
		assert.Equal(t, int64(0), tm.NoCandidate, "nothing booked over the budget, nothing counted")
		assertSuppressionsTraced(t, tm, first.Trace, res.Trace)
	})
}

// assertSuppressionsTraced checks that tm counts the suppressions the
// traces of every read of its table book, no more.
func assertSuppressionsTraced(t *testing.T, tm coordinator.TableMetrics, traces ...coordinator.Trace) {
	t.Helper()
	var want coordinator.TableMetrics
	for _, tr := range traces {
		expectFromTrace(&want, consistency.Quorum, tr, nil)
	}
	assert.Equal(t, want.SuppressedBudget, tm.SuppressedBudget, "budget")
	assert.Equal(t, want.SuppressedOverload, tm.SuppressedOverload, "overload")
	assert.Equal(t, want.NoCandidate, tm.NoCandidate, "no candidate")
}

// Under ALWAYS the extra request, sent, makes up for one contact refused
// for its replica's backlog; only a second refusal calls for a stand-in
// (see mayStandIn). A failure of another contact then fails the round: the
// extra request is not sent again as a stand-in for the refused one, as no
// policy replaces a replica that failed. Two DCs, QUORUM of 4: d1n1 is at
// its cap, d1n2 fails at 1 ms, d2n3 is left free and stays unasked.
func TestAlwaysSendsNoStandInForOneRefusalWhenAContactFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := alwaysWithoutBudget(t)
		cfg.HedgeBudget = coordinator.HedgeBudget{Unlimited: true}
		e := newTwoDCs(t, cfg)
		e.hangs(t, d1n1)
		defer func() {
			e.behave(t, d1n1, constant(ms(1)))
			time.Sleep(2 * time.Hour) // the wedged request returns
		}()
		first, _, err := e.read(consistency.Quorum)
		require.NoError(t, err, "ALWAYS's extra request completes the quorum without d1n1\n%s", first.Trace)

		require.NoError(t, e.replica(d1n2).SetFault(replicatest.ErrorAfter(ms(1), errors.New("boom"))))
		res, _, err := e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure, "d1n2's failure leaves 3 of the 4 needed\n%s", res.Trace)
		assert.Equal(t, 1, refusedIn(res.Trace), "%s", res.Trace)
		for _, rq := range res.Trace.Requests {
			assert.NotEqual(t, d2n3, rq.Endpoint, "no stand-in for the refusal the extra request made up for\n%s", res.Trace)
		}
	})
}
