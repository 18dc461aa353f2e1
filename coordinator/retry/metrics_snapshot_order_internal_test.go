package retry

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
)

// verdictPolicy gives every failure the same verdict.
type verdictPolicy struct{ v Verdict }

func (p verdictPolicy) OnReadTimeout(Statement, *consistency.ReadTimeoutError, int) Verdict {
	return p.v
}
func (p verdictPolicy) OnWriteTimeout(Statement, *consistency.WriteTimeoutError, int) Verdict {
	return p.v
}
func (p verdictPolicy) OnUnavailable(Statement, *consistency.UnavailableError, int) Verdict {
	return p.v
}
func (p verdictPolicy) OnRequestAborted(Statement, error, int) Verdict { return p.v }
func (p verdictPolicy) OnErrorResponse(Statement, error, int) Verdict  { return p.v }

// A snapshot is loaded one count at a time while statements run. Whatever
// statements begin and end between two of its loads, it keeps the bounds
// Metrics documents: a statement run between every two loads in turn,
// each way it can end, never shows more endings than executions (as the
// old order did, which loaded Executions first), nor more exhaustion than
// chains of attempts, nor more retries won or downgraded than made.
func TestMetricsSnapshotKeepsItsBoundsWhateverRunsBetweenLoads(t *testing.T) {
	timeout := &consistency.ReadTimeoutError{Level: consistency.Quorum, BlockFor: 2, Received: 1}
	failFirst := func(_ context.Context, target int, _ consistency.Level) (int, error) {
		if target == 0 {
			return 0, timeout
		}
		return target, nil
	}
	plan := []int{0, 1}
	cases := map[string]struct {
		cfg     Config
		plan    []int
		attempt Attempt[int, int]
		want    string // Metrics' String once it has run
	}{
		"a downgraded retry wins": {Config{Policy: verdictPolicy{retryNext(consistency.One)}}, plan, failFirst,
			"executions=1 retries=1 (READ_TIMEOUT=1) retry_successes=1 ignores=0 exhausted=0 speculative=0 " +
				"budget_refusals=0 downgrades=1"},
		"ignored": {Config{Policy: verdictPolicy{Verdict{Decision: Ignore}}}, plan, failFirst,
			"executions=1 retries=0 () retry_successes=0 ignores=1 exhausted=0 speculative=0 budget_refusals=0 " +
				"downgrades=0"},
		"retries exhausted": {Config{Policy: verdictPolicy{retrySame(consistency.Quorum)}, MaxRetries: 1},
			plan[:1], func(context.Context, int, consistency.Level) (int, error) { return 0, timeout },
			"executions=1 retries=1 (READ_TIMEOUT=1) retry_successes=0 ignores=0 exhausted=1 speculative=0 " +
				"budget_refusals=0 downgrades=0"},
		"both chains exhausted": {Config{Policy: verdictPolicy{retrySame(consistency.Quorum)}, MaxRetries: 1,
			Speculation: FixedDelay(time.Millisecond), SpeculativeExecutions: 1}, plan,
			func(ctx context.Context, _ int, _ consistency.Level) (int, error) {
				select {
				case <-ctx.Done():
					return 0, ctx.Err()
				case <-time.After(10 * time.Millisecond):
					return 0, timeout
				}
			},
			"executions=1 retries=1 (READ_TIMEOUT=1) retry_successes=0 ignores=0 exhausted=2 speculative=1 " +
				"budget_refusals=0 downgrades=0"},
	}
	for name, tc := range cases {
		for gap := range len(snapshotLoads) + 1 {
			synctest.Test(t, func(t *testing.T) {
				e, err := NewExecutor(tc.cfg)
				require.NoError(t, err)
				s := Statement{Level: consistency.Quorum, Idempotent: Idempotent}
				var m Metrics
				for i := range len(snapshotLoads) + 1 {
					if i == gap {
						_, err := Execute(t.Context(), e, s, tc.plan, tc.attempt)
						var xe *ExecutionError
						require.True(t, err == nil || errors.As(err, &xe), "%s: %v", name, err)
					}
					if i < len(snapshotLoads) {
						snapshotLoads[i](&e.m, &m)
					}
				}
				require.LessOrEqual(t, m.RetrySuccesses+m.Ignores, m.Executions, "%s, run before load %d: %v", name, gap, m)
				require.LessOrEqual(t, m.Exhausted, m.Executions+m.SpeculativeAttempts, "%s, run before load %d: %v", name, gap, m)
				require.LessOrEqual(t, m.RetrySuccesses, m.TotalRetries(), "%s, run before load %d: %v", name, gap, m)
				require.LessOrEqual(t, m.Downgrades, m.TotalRetries(), "%s, run before load %d: %v", name, gap, m)
				if gap == 0 { // run before every load
					require.Equal(t, e.Metrics(), m, "%s: the snapshot's loads", name)
					require.Equal(t, tc.want, m.String(), name)
				}
			})
		}
	}
}
