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

// downgradeTo is a policy that retries every failure on the next target at l.
func downgradeTo(l c.Level) *recorder {
	return &recorder{answer: func(retry.Statement) retry.Verdict { return next(l) }}
}

// A failed statement reports the level of the attempt that failed last, or
// the level it asked for when no attempt failed; never the zero level ANY.
func TestFailedStatementReportsALevel(t *testing.T) {
	tests := []struct {
		name      string
		cfg       retry.Config
		plan      []target
		cancelAt  time.Duration // 0: never
		wantErr   error
		wantLevel c.Level
	}{
		{"downgraded retry failed", retry.Config{Policy: downgradeTo(c.One)},
			[]target{{name: "a", errs: []error{overloaded}}, {name: "b", errs: []error{overloaded}}},
			0, retry.ErrPlanExhausted, c.One},
		{"rethrown at once", retry.Config{Policy: retry.FallthroughPolicy{}},
			[]target{{name: "a", errs: []error{overloaded}}},
			0, retry.ErrRethrown, c.Quorum},
		{"policy forgot the level", retry.Config{Policy: &recorder{answer: func(retry.Statement) retry.Verdict {
			return retry.Verdict{Decision: retry.RetryNext}
		}}}, []target{{name: "a", errs: []error{overloaded}}, {name: "b"}},
			0, retry.ErrInvalidVerdict, c.Quorum},
		{"cancelled during the backoff before a downgraded retry",
			retry.Config{Policy: downgradeTo(c.One), Backoff: func(int) time.Duration { return time.Second }},
			[]target{{name: "a", delay: 10 * ms, errs: []error{overloaded}}, {name: "b"}},
			20 * ms, context.Canceled, c.Quorum},
		{"cancelled before any attempt failed", retry.Config{},
			[]target{{name: "a", delay: time.Second}},
			20 * ms, context.Canceled, c.Quorum},
		{"speculative, downgraded retry failed",
			retry.Config{Policy: downgradeTo(c.One), Speculation: retry.FixedDelay(50 * ms)},
			[]target{{name: "a", delay: 10 * ms, errs: []error{overloaded}},
				{name: "b", delay: 10 * ms, errs: []error{overloaded}}},
			0, retry.ErrPlanExhausted, c.One},
		{"speculative, cancelled with attempts in flight",
			retry.Config{Speculation: retry.FixedDelay(50 * ms)},
			[]target{{name: "a", delay: time.Second}, {name: "b", delay: time.Second}},
			60 * ms, context.Canceled, c.Quorum},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ex := newExecutor(t, tt.cfg)
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				if tt.cancelAt > 0 {
					time.AfterFunc(tt.cancelAt, cancel)
				}
				res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), tt.plan, newCluster().attempt)
				require.ErrorIs(t, err, tt.wantErr)
				var ee *retry.ExecutionError
				require.ErrorAs(t, err, &ee)
				assert.Equal(t, tt.wantLevel, ee.Level)
				assert.Equal(t, c.Quorum, ee.Requested)
				assert.Equal(t, tt.wantLevel, res.Level)
				assert.Equal(t, c.Quorum, res.Requested)
				assert.Equal(t, ee.Attempts, res.Attempts)
				assert.Zero(t, res.Value)
			})
		})
	}
}

// A call rejected before any attempt reports the level it asked for.
func TestRejectedCallReportsTheRequestedLevel(t *testing.T) {
	res, err := retry.Execute(t.Context(), newExecutor(t, retry.Config{}), stmt(c.LocalQuorum, retry.Idempotent),
		[]target{}, newCluster().attempt)
	require.ErrorIs(t, err, retry.ErrEmptyPlan)
	assert.Equal(t, c.LocalQuorum, res.Level)
	assert.Equal(t, c.LocalQuorum, res.Requested)
}
