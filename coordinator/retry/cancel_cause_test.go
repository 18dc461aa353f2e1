package retry_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A statement the caller cancels with a cause (context.WithCancelCause)
// stops with a Reason that matches both context.Canceled and the cause,
// whenever the cancellation comes: before the first attempt, during an
// attempt, or during the backoff before a retry; speculating or not. The
// Reason was context.Canceled alone.
func TestACancelledStatementKeepsTheCallersCause(t *testing.T) {
	shutdown := errors.New("client shutting down")
	for name, at := range map[string]time.Duration{"before": 0, "attempt": 5 * ms, "backoff": 15 * ms} {
		for _, spec := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/speculating=%v", name, spec), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					cfg := retry.Config{Backoff: func(int) time.Duration { return 20 * ms }}
					if spec {
						cfg.Speculation = retry.FixedDelay(time.Second)
					}
					ex := newExecutor(t, cfg)
					cl := newCluster()
					plan := []target{{name: "a", delay: 10 * ms, errs: []error{unavailable(c.Quorum, 2, 1)}}, {name: "b"}}
					ctx, cancel := context.WithCancelCause(t.Context())
					if at == 0 {
						cancel(shutdown)
					} else {
						time.AfterFunc(at, func() { cancel(shutdown) })
					}
					_, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
					var ee *retry.ExecutionError
					require.ErrorAs(t, err, &ee)
					assert.ErrorIs(t, ee.Reason, context.Canceled)
					assert.ErrorIs(t, ee.Reason, shutdown)
				})
			})
		}
	}
}
