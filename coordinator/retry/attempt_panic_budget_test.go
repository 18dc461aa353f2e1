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

// When a speculative attempt panics, the retry another chain is waiting
// out its backoff for never runs, and its budget token goes back before
// the panic reaches Execute's caller; the speculative attempt, which ran,
// keeps its own. Both were kept: a budget of 10 held 8, not 9.
func TestAnAttemptPanicGivesBackTheTokenOfARetryInBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
		require.NoError(t, err)
		ex := newExecutor(t, retry.Config{Budget: b, Speculation: retry.FixedDelay(10 * ms),
			Backoff: func(int) time.Duration { return 50 * ms }})
		attempt := func(ctx context.Context, tg string, l c.Level) (string, error) {
			if tg == "b" {
				panic("boom in b")
			}
			return "", readTimeout(l, 2, 2, false) // DefaultPolicy retries it on a
		}
		before := b.Available(time.Now())
		p := panicOf(func() {
			_, _ = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"}, attempt)
		})
		require.NotNil(t, p)
		assert.Equal(t, before-1, b.Available(time.Now()), "only b's speculative attempt ran")
	})
}
