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

// hedgeDue reads once with A stalled and a 5 ms threshold, and reports
// whether the read hedged and, if not, why.
func hedgeDue(t *testing.T, e *env) (bool, coordinator.SuppressCause) {
	t.Helper()
	res, _, err := e.read(consistency.Quorum)
	require.NoError(t, err)
	return res.Trace.Hedge.Fired, res.Trace.Hedge.Suppressed
}

// The floor alone (no percentage) allows MinPerSecond × Window hedges per
// window: 10 with the defaults, the 11th is suppressed and counted; they
// come back when the window has slid past the slot that spent them, and not
// a slot sooner.
func TestBudgetFloorAndWindowBoundary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		e := stalledA(t, coordinator.Config{DefaultTable: policy(t, "5ms"),
			HedgeBudget: coordinator.HedgeBudget{Percent: -1}}) // the floor: 1/s over 10 s
		e.behave(t, A, constant(ms(20)))
		for i := range 10 {
			fired, _ := hedgeDue(t, e)
			assert.True(t, fired, "hedge %d is within the floor", i)
		}
		for range 2 {
			fired, cause := hedgeDue(t, e)
			assert.False(t, fired)
			assert.Equal(t, coordinator.SuppressedBudget, cause)
		}
		assert.Less(t, time.Since(start), time.Second, "every hedge so far drew in the first slot")
		m := e.c.Metrics().Total
		assert.Equal(t, int64(10), m.SpeculativeRetries)
		assert.Equal(t, int64(2), m.SuppressedBudget)
		assert.Equal(t, m.Reads, m.SpeculativeRetries+m.SuppressedBudget, "every due hedge is sent or counted")

		// A hedge due at 9.999 s draws in the window's last slot, which
		// still holds the first slot's ten.
		time.Sleep(time.Until(start.Add(10*time.Second - ms(6))))
		fired, cause := hedgeDue(t, e)
		assert.False(t, fired)
		assert.Equal(t, coordinator.SuppressedBudget, cause)

		// At 10 s the first slot has left the window.
		time.Sleep(time.Until(start.Add(10 * time.Second)))
		for i := range 10 {
			fired, _ := hedgeDue(t, e)
			assert.True(t, fired, "hedge %d after the window slid", i)
		}
		fired, cause = hedgeDue(t, e)
		assert.False(t, fired)
		assert.Equal(t, coordinator.SuppressedBudget, cause)
		settle()
	})
}

// Percent of the window's reads plus the floor: after 100 reads that did
// not need to hedge, 10 % of them and the floor's 10 may.
func TestBudgetPercentOfReadsPlusFloor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := stalledA(t, coordinator.Config{DefaultTable: policy(t, "5ms")})
		e.behave(t, A, constant(ms(1)))
		for range 100 {
			fired, _ := hedgeDue(t, e)
			require.False(t, fired)
		}
		e.behave(t, A, constant(ms(20)))
		n := 0
		for range 40 {
			if fired, _ := hedgeDue(t, e); fired {
				n++
			}
		}
		// Every read deposits, hedged or not: after 100 + j reads the
		// allowance is 0.1·(100+j) + 10, so 22 hedges by the 22nd, one more
		// at the 30th and the 40th: 24.
		assert.Equal(t, 24, n)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(24), m.SpeculativeRetries)
		assert.Equal(t, int64(16), m.SuppressedBudget)
		settle()
	})
}

// A budget with neither percentage nor floor suppresses every hedge, and
// counts each.
func TestBudgetOfNothingSuppressesEveryHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := stalledA(t, coordinator.Config{DefaultTable: policy(t, "5ms"),
			HedgeBudget: coordinator.HedgeBudget{Percent: -1, MinPerSecond: -1}})
		e.behave(t, A, constant(ms(20)))
		for range 5 {
			fired, cause := hedgeDue(t, e)
			assert.False(t, fired)
			assert.Equal(t, coordinator.SuppressedBudget, cause)
		}
		assert.Equal(t, int64(5), e.c.Metrics().Total.SuppressedBudget)
		settle()
	})
}

// Invalid budgets are refused by New with ErrInvalidConfig.
func TestBudgetConfigRejects(t *testing.T) {
	cl := instantCluster(t)
	for name, b := range map[string]coordinator.HedgeBudget{
		"percent above 1": {Percent: 1.5},
		"NaN percent":     {Percent: nan()},
		"NaN floor":       {MinPerSecond: nan()},
		"short window":    {Window: time.Millisecond},
		"negative window": {Window: -time.Second},
	} {
		_, err := coordinator.New(coordinator.Config{Locator: cl, HedgeBudget: b})
		assert.ErrorIs(t, err, coordinator.ErrInvalidConfig, name)
	}
}

func nan() float64 { z := 0.0; return z / z }
