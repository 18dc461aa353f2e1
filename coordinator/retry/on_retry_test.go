package retry_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// timedEvent is a RetryEvent and when the listener got it.
type timedEvent struct {
	at time.Duration
	ev retry.RetryEvent
}

// listen returns a listener that records events on cl's clock.
func listen(cl *cluster, into *[]timedEvent) func(retry.RetryEvent) {
	return func(ev retry.RetryEvent) { *into = append(*into, timedEvent{cl.elapsed(), ev}) }
}

// OnRetry hears of each retry when the failure is judged, after OnDowngrade
// and before the backoff, with everything that decided it.
func TestOnRetryIsToldOfEveryRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ladder, err := retry.NewLadderPolicy(c.Two, c.One)
		require.NoError(t, err)
		cl := newCluster()
		var events []timedEvent
		var order []string
		onRetry := listen(cl, &events)
		ex := newExecutor(t, retry.Config{Policy: ladder, ExponentialBackoff: jittered(10*ms, 0, uHalf),
			OnDowngrade: func(retry.Downgrade) { order = append(order, "downgrade") },
			OnRetry:     func(ev retry.RetryEvent) { order = append(order, "retry"); onRetry(ev) }})
		first, second := unavailable(c.Quorum, 2, 1), unavailable(c.Two, 2, 1)
		plan := []target{{name: "a", delay: ms, errs: []error{first, second}}}
		s := stmt(c.Quorum, retry.Idempotent)
		res, err := retry.Execute(t.Context(), ex, s, plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, c.One, res.Level)
		assert.Equal(t, []timedEvent{
			{ms, retry.RetryEvent{Statement: s, Retry: 1, Err: first, Cause: retry.CauseUnavailable,
				Verdict: same(c.Two), Level: c.Two, Target: 0, Delay: 5 * ms}},
			{7 * ms, retry.RetryEvent{Statement: s, Retry: 2, Err: second, Cause: retry.CauseUnavailable,
				Verdict: same(c.One), Level: c.One, Target: 0, Delay: 10 * ms}},
		}, events)
		assert.Equal(t, []call{{target: "a", level: c.Quorum}, {target: "a", level: c.Two, at: 6 * ms},
			{target: "a", level: c.One, at: 17 * ms}}, cl.log(), "each retry runs Delay after its event")
		assert.Equal(t, []string{"downgrade", "retry", "downgrade", "retry"}, order)
	})
}

// OnRetry hears only of retries that run: one per retry counted.
func TestOnRetryIsNotToldOfRefusedRetries(t *testing.T) {
	forever := &recorder{answer: func(s retry.Statement) retry.Verdict { return same(s.Level) }}
	tests := []struct {
		name   string
		cfg    retry.Config
		idem   retry.Idempotence
		errs   []error
		events int
	}{
		{"plan exhausted", retry.Config{}, retry.Idempotent, []error{overloaded, overloaded}, 1},
		{"MaxRetries", retry.Config{Policy: forever, MaxRetries: 2}, retry.Idempotent,
			[]error{overloaded, overloaded, overloaded}, 2},
		{"budget", retry.Config{}, retry.Idempotent, []error{overloaded}, 0},
		{"deadline", retry.Config{Backoff: func(int) time.Duration { return time.Hour }}, retry.Idempotent,
			[]error{overloaded}, 0},
		{"idempotence gate", retry.Config{}, retry.NotIdempotent, []error{overloaded}, 0},
		{"rethrown", retry.Config{Policy: retry.FallthroughPolicy{}}, retry.Idempotent, []error{overloaded}, 0},
		{"ignored", retry.Config{Policy: retry.DowngradingPolicy{}}, retry.Idempotent,
			[]error{writeTimeout(c.One, c.WriteSimple, 1, 1)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := newCluster()
				var events []timedEvent
				tt.cfg.OnRetry = listen(cl, &events)
				if tt.name == "budget" {
					tt.cfg.Budget = newBudget(t, retry.BudgetConfig{Percent: 0})
				}
				ex := newExecutor(t, tt.cfg)
				ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
				defer cancel()
				plan := []target{{name: "a", errs: tt.errs}, {name: "b", errs: tt.errs[1:]}}
				_, _ = retry.Execute(ctx, ex, stmt(c.One, tt.idem), plan, cl.attempt)
				assert.Len(t, events, tt.events)
				assert.Equal(t, uint64(tt.events), ex.Metrics().TotalRetries())
			})
		})
	}
}

// In speculative execution, OnRetry hears of the retries, not of the
// speculative attempts.
func TestOnRetryDuringSpeculation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := newCluster()
		var events []timedEvent
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(50 * ms), OnRetry: listen(cl, &events)})
		plan := []target{{name: "a", delay: 10 * ms, errs: []error{overloaded}}, {name: "b", delay: 100 * ms},
			{name: "c", delay: 10 * ms}}
		s := stmt(c.One, retry.Idempotent)
		res, err := retry.Execute(t.Context(), ex, s, plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "c", res.Value)
		assert.Equal(t, []timedEvent{{10 * ms, retry.RetryEvent{Statement: s, Retry: 1, Err: overloaded,
			Cause: retry.CauseErrorResponse, Verdict: next(c.One), Level: c.One, Target: 1}}}, events)
	})
}
