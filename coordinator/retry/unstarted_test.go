package retry_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A retry the context cancels during its backoff never runs: its budget
// token is refunded, and the metrics do not count it, though OnRetry,
// told before the backoff, heard of it.
func TestCancelDuringBackoffRefundsTheRetry(t *testing.T) {
	for _, spec := range []bool{false, true} {
		t.Run(fmt.Sprint("speculating=", spec), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// A floor of one extra attempt per 10 s window.
				b := newBudget(t, retry.BudgetConfig{Percent: 0, MinPerSecond: 0.1, Window: 10 * time.Second})
				var events int
				cfg := retry.Config{Budget: b, Backoff: func(int) time.Duration { return time.Second },
					OnRetry: func(retry.RetryEvent) { events++ }, Policy: retry.DowngradingPolicy{}}
				if spec {
					cfg.Speculation = retry.FixedDelay(time.Hour)
				}
				ex := newExecutor(t, cfg)
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				time.AfterFunc(100*ms, cancel)
				cl := newCluster()
				plan := []target{{name: "a", errs: []error{unavailable(c.Quorum, 2, 1)}}, {name: "b"}}
				res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
				require.ErrorIs(t, err, context.Canceled)
				assert.Equal(t, 1, events, "OnRetry hears of it before the backoff")
				assert.Equal(t, 1.0, b.Available(time.Now()), "the token is refunded")
				m := ex.Metrics()
				assert.Zero(t, m.TotalRetries())
				assert.Zero(t, m.Downgrades, "the downgraded retry never ran")
				assert.Equal(t, 1, res.Attempts.Len())
				assert.Len(t, cl.log(), 1)
			})
		})
	}
}

// The same when another attempt wins while a retry waits out its backoff.
func TestWinnerRefundsARetryInBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBudget(t, retry.BudgetConfig{Percent: 0, MinPerSecond: 0.2, Window: 10 * time.Second})
		ex := newExecutor(t, retry.Config{Budget: b, Backoff: func(int) time.Duration { return time.Hour },
			Speculation: retry.FixedDelay(50 * ms)})
		cl := newCluster()
		rt := readTimeout(c.Quorum, 2, 2, false) // DefaultPolicy: RETRY_SAME
		plan := []target{{name: "a", delay: 10 * ms, errs: []error{rt}}, {name: "b", delay: 10 * ms}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "b", res.Value)
		assert.Equal(t, 1.0, b.Available(time.Now()), "only the speculative attempt's token is spent")
		m := ex.Metrics()
		assert.Zero(t, m.TotalRetries())
		assert.Equal(t, uint64(1), m.SpeculativeAttempts)
	})
}
