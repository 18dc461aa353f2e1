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

// An attempt that ignores its context and succeeds after the context ended
// the statement wins it, speculating or not, and its record has no Reason
// (a speculating statement reported it failed, with a success among its
// attempts whose Reason was context.Canceled).
func TestASuccessAfterTheContextEndedWins(t *testing.T) {
	for _, spec := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			cfg := retry.Config{}
			if spec {
				cfg.Speculation = retry.FixedDelay(time.Hour)
			}
			ex := newExecutor(t, cfg)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			time.AfterFunc(10*time.Millisecond, cancel)
			attempt := func(_ context.Context, _ string, _ c.Level) (string, error) {
				time.Sleep(50 * time.Millisecond) // ignores its context
				return "row", nil
			}
			res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"}, attempt)
			t.Logf("speculating=%v: err=%v value=%q", spec, err, res.Value)
			for _, r := range res.Attempts.All() {
				t.Logf("  record: %s; Reason=%v", r, r.Reason)
				if r.Err == nil {
					assert.Nil(t, r.Reason, "speculating=%v: a succeeded attempt's Reason", spec)
				}
			}
			require.NoError(t, err, "speculating=%v: sequential returns the success", spec)
		})
	}
}
