package retry_test

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A retry whose OnDowngrade or OnRetry panics never runs: the panic reaches
// Execute's caller, and the retry's budget token goes back. It was kept,
// so that every such panic took a token of the shared budget for good.
func TestAnObserverPanicGivesBackTheRetrysToken(t *testing.T) {
	panics := func(retry.RetryEvent) { panic("observer bug") }
	for name, cfg := range map[string]retry.Config{
		"OnRetry":     {OnRetry: panics},
		"OnDowngrade": {OnDowngrade: func(retry.Downgrade) { panic("observer bug") }},
	} {
		for _, spec := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/speculating=%v", name, spec), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
					require.NoError(t, err)
					cfg.Budget = b
					cfg.Policy = retry.DowngradingPolicy{}
					if spec {
						cfg.Speculation = retry.FixedDelay(time.Second)
					}
					ex := newExecutor(t, cfg)
					cl := newCluster()
					plan := []target{{name: "a", errs: []error{unavailable(c.Quorum, 2, 1)}}, {name: "b"}}
					before := b.Available(time.Now())
					p := panicOf(func() {
						_, _ = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
					})
					assert.Equal(t, "observer bug", p, "the panic reaches the caller as raised")
					assert.Equal(t, before, b.Available(time.Now()))
				})
			})
		}
	}
}
