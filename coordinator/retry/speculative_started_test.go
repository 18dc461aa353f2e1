package retry_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A speculative attempt falls due at the moment the first attempt answers:
// the executor may launch it, then see the answer and cancel it before its
// goroutine calls the attempt function. It never started, its budget token
// is refunded, and Metrics.SpeculativeAttempts, "the speculative attempts
// started", does not count it. Which of the two the executor sees first is
// the scheduler's choice, about even, so the test runs the race many times.
func TestSpeculativeAttemptCancelledBeforeItStartsIsNotCounted(t *testing.T) {
	for range 100 {
		synctest.Test(t, func(t *testing.T) {
			b := newBudget(t, retry.BudgetConfig{Percent: 0, MinPerSecond: 1, Window: 10 * time.Second})
			ex := newExecutor(t, retry.Config{Budget: b, Speculation: retry.FixedDelay(50 * ms)})
			cl := newCluster()
			plan := []target{{name: "a", delay: 50 * ms}, {name: "b", delay: 10 * ms}}
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
			require.NoError(t, err)
			require.Equal(t, "a", res.Value)

			started := uint64(len(cl.log()) - 1) // b's attempts: a's was the first
			spent := 10 - b.Available(time.Now())
			assert.Equal(t, started, ex.Metrics().SpeculativeAttempts, "attempts on b")
			assert.Equal(t, float64(started), spent, "budget tokens kept")
		})
	}
}
