package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica"
)

// errSchema is a Locator's own error, beside the one it wraps.
var errSchema = errors.New("schema service")

// The metrics count a failed read under the kind retry.Classify gives its
// error: they looked through single wraps alone, and Classify through
// joined errors too (Unwrap() []error), so a Locator's error joining an
// unavailable one counted in OtherErrors, and a read cancelled with an
// unavailable cause in Cancelled, while a retry policy judged both
// unavailable (found by review).
func TestMetricsCountAReadsErrorAsClassifyDoes(t *testing.T) {
	unavailable := &consistency.UnavailableError{Level: consistency.Quorum, Required: 2, Alive: 1}
	timeout := &consistency.ReadTimeoutError{Level: consistency.Quorum, BlockFor: 2, Received: 1}
	for _, tc := range []struct {
		name   string
		err    error // the Locator's, or the cancellation's cause
		cancel bool
	}{
		{"joined unavailable", errors.Join(errSchema, unavailable), false},
		{"two %w, a timeout", fmt.Errorf("%w: %w", errSchema, timeout), false},
		{"wrapped unavailable", fmt.Errorf("locate: %w", unavailable), false},
		{"plain", errSchema, false},
		{"cancelled, unavailable cause", unavailable, true},
		{"cancelled, plain cause", errSchema, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var loc coordinator.Locator = coordinator.LocatorFunc(
				func(string, string) ([]replica.Replica, consistency.Replication, error) {
					return nil, consistency.Replication{}, tc.err
				})
			ctx := context.Background()
			if tc.cancel { // a cancelled read of replicas that answer at once
				loc = instantCluster(t)
				var cancel context.CancelCauseFunc
				ctx, cancel = context.WithCancelCause(ctx)
				cancel(tc.err)
			}
			c, err := coordinator.New(coordinator.Config{Locator: loc})
			require.NoError(t, err)
			defer c.Close()
			_, err = c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
			require.Error(t, err)
			m := c.Metrics().Total
			got := map[string]int64{"unavailable": m.Unavailable, "timeouts": m.Timeouts,
				"failures": m.Failures, "cancelled": m.Cancelled, "other": m.OtherErrors}
			want := map[string]int64{"unavailable": 0, "timeouts": 0, "failures": 0, "cancelled": 0, "other": 0}
			switch retry.Classify(err) {
			case retry.CauseUnavailable:
				want["unavailable"] = 1
			case retry.CauseReadTimeout:
				want["timeouts"] = 1
			default:
				if errors.Is(err, context.Canceled) {
					want["cancelled"] = 1
				} else {
					want["other"] = 1
				}
			}
			assert.Equal(t, want, got, "%v: %v", retry.Classify(err), err)
		})
	}
}
