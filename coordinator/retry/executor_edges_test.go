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

// configs run each executor test sequentially and speculating (the
// statement speculates only where the first attempt is still running at the
// delay, which these attempts never are, but runs on goroutines).
var executorModes = []struct {
	name string
	spec retry.SpeculationDelay
}{{"sequential", nil}, {"speculating", retry.FixedDelay(time.Hour)}}

// A context ended before Execute makes no attempt, withdraws nothing from
// the budget, and fails with the context's error and no attempt error.
func TestCancelledBeforeTheFirstAttempt(t *testing.T) {
	for _, mode := range executorModes {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := newBudget(t, retry.BudgetConfig{Percent: 0, MinPerSecond: 1})
				ex := newExecutor(t, retry.Config{Speculation: mode.spec, Budget: b})
				before := b.Available(time.Now())
				ctx, cancel := context.WithCancel(t.Context())
				cancel()
				called := 0
				res, err := retry.Execute(ctx, ex, stmt(c.LocalQuorum, retry.Idempotent), []string{"a", "b"},
					func(context.Context, string, c.Level) (string, error) { called++; return "x", nil })
				require.ErrorIs(t, err, context.Canceled)
				assert.Zero(t, called)
				var ee *retry.ExecutionError
				require.ErrorAs(t, err, &ee)
				assert.NoError(t, ee.Err)
				assert.Equal(t, c.LocalQuorum, ee.Level)
				assert.Equal(t, c.LocalQuorum, res.Level)
				assert.Zero(t, res.Attempts.Len())
				assert.Equal(t, before, b.Available(time.Now()))
				m := ex.Metrics()
				assert.Equal(t, uint64(1), m.Executions)
				assert.Zero(t, m.TotalRetries())
				assert.Zero(t, m.Exhausted)
			})
		})
	}
}

// The context ending during a retry's backoff ends the statement at once:
// the retry never starts, is not counted, and its budget token goes back;
// the error keeps the failure that led to the retry, and its record says
// the context stopped it.
func TestCancelledMidBackoff(t *testing.T) {
	for _, mode := range executorModes {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := newBudget(t, retry.BudgetConfig{Percent: 0, MinPerSecond: 1})
				var events []retry.RetryEvent
				ex := newExecutor(t, retry.Config{Speculation: mode.spec, Budget: b,
					Backoff:    func(int) time.Duration { return 100 * ms },
					OnRetry:    func(ev retry.RetryEvent) { events = append(events, ev) },
					Policy:     retry.DefaultPolicy{},
					MaxRetries: 5})
				before := b.Available(time.Now())
				ctx, cancel := context.WithCancel(t.Context())
				go func() { time.Sleep(50 * ms); cancel() }()
				cl := newCluster()
				unav := unavailable(c.Quorum, 2, 1)
				plan := []target{{name: "a", delay: 10 * ms, errs: []error{unav}}, {name: "b"}}
				res, err := retry.Execute(ctx, ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
				assert.Equal(t, 50*ms, cl.elapsed(), "the backoff is cut short")
				require.ErrorIs(t, err, context.Canceled)
				assert.ErrorIs(t, err, unav)
				assert.Equal(t, []string{"a"}, targets(cl.log()))
				require.Len(t, events, 1, "OnRetry heard of the retry before its backoff")
				assert.Equal(t, 100*ms, events[0].Delay)
				require.Equal(t, 1, res.Attempts.Len())
				assert.ErrorIs(t, res.Attempts.At(0).Reason, context.Canceled)
				m := ex.Metrics()
				assert.Zero(t, m.TotalRetries(), "a retry that never started is not counted")
				assert.Zero(t, m.RetrySuccesses)
				assert.Zero(t, m.Exhausted)
				assert.Equal(t, before, b.Available(time.Now()), "the token is refunded")
			})
		})
	}
}

// panicky panics on every callback.
type panicky struct{}

func (panicky) OnReadTimeout(retry.Statement, *c.ReadTimeoutError, int) retry.Verdict { panic("read") }
func (panicky) OnWriteTimeout(retry.Statement, *c.WriteTimeoutError, int) retry.Verdict {
	panic("write")
}
func (panicky) OnUnavailable(retry.Statement, *c.UnavailableError, int) retry.Verdict { panic("unav") }
func (panicky) OnRequestAborted(retry.Statement, error, int) retry.Verdict            { panic("abort") }
func (panicky) OnErrorResponse(retry.Statement, error, int) retry.Verdict             { panic("error") }

// A policy that panics fails the statement at once, with nothing retried,
// counted or withdrawn; Execute itself does not panic.
func TestPanickingPolicyFailsTheStatementOnce(t *testing.T) {
	for _, mode := range executorModes {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := newBudget(t, retry.BudgetConfig{Percent: 0, MinPerSecond: 1})
				ex := newExecutor(t, retry.Config{Speculation: mode.spec, Budget: b, Policy: panicky{}})
				before := b.Available(time.Now())
				cl := newCluster()
				plan := []target{{name: "a", errs: []error{readTimeout(c.Quorum, 2, 2, false)}}, {name: "b"}}
				var err error
				require.Nil(t, panicOf(func() {
					_, err = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
				}))
				var pp *retry.PolicyPanicError
				require.ErrorAs(t, err, &pp)
				assert.Equal(t, "read", pp.Value)
				assert.Equal(t, []string{"a"}, targets(cl.log()))
				m := ex.Metrics()
				assert.Zero(t, m.TotalRetries())
				assert.Zero(t, m.Exhausted)
				assert.Zero(t, m.BudgetRefusals)
				assert.Equal(t, before, b.Available(time.Now()))
			})
		})
	}
}

// A budget refusal ends the statement with ErrBudgetExhausted and is counted
// once, as a refusal: not as a retry, not as exhaustion, and OnRetry is not
// told of it.
func TestBudgetRefusalIsCountedOnce(t *testing.T) {
	for _, mode := range executorModes {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := newBudget(t, retry.BudgetConfig{Percent: 0})
				told := 0
				ex := newExecutor(t, retry.Config{Speculation: mode.spec, Budget: b,
					OnRetry: func(retry.RetryEvent) { told++ }})
				cl := newCluster()
				plan := []target{{name: "a", errs: []error{unavailable(c.Quorum, 2, 1)}}, {name: "b"}}
				_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
				require.ErrorIs(t, err, retry.ErrBudgetExhausted)
				assert.Equal(t, []string{"a"}, targets(cl.log()))
				assert.Zero(t, told)
				m := ex.Metrics()
				assert.Equal(t, uint64(1), m.BudgetRefusals)
				assert.Zero(t, m.TotalRetries())
				assert.Zero(t, m.Exhausted)
			})
		})
	}
}

// Once the budget refuses a speculative attempt, no more are tried: one
// refusal, however many speculative executions are configured.
func TestRefusedSpeculationIsAskedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBudget(t, retry.BudgetConfig{Percent: 0})
		ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(10 * ms), SpeculativeExecutions: 3, Budget: b})
		cl := newCluster()
		plan := []target{{name: "a", delay: 100 * ms}, {name: "b"}, {name: "c"}, {name: "d"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "a", res.Value)
		assert.Equal(t, []string{"a"}, targets(cl.log()))
		m := ex.Metrics()
		assert.Equal(t, uint64(1), m.BudgetRefusals)
		assert.Zero(t, m.SpeculativeAttempts)
	})
}

// Retries, retry successes and exhaustion, counted by what happened.
func TestRetryMetrics(t *testing.T) {
	unav := unavailable(c.Quorum, 2, 1)
	noData := readTimeout(c.Quorum, 2, 2, false)
	cases := []struct {
		name      string
		plan      []target
		reason    error
		retries   [5]uint64
		successes uint64
		exhausted uint64
	}{
		{"retry succeeds", []target{{name: "a", errs: []error{unav}}, {name: "b"}}, nil,
			[5]uint64{retry.CauseUnavailable: 1}, 1, 0},
		{"second failure rethrown", []target{{name: "a", errs: []error{unav}}, {name: "b", errs: []error{noData}}}, retry.ErrRethrown,
			[5]uint64{retry.CauseUnavailable: 1}, 0, 0},
		{"plan exhausted", []target{{name: "a", errs: []error{unav}}}, retry.ErrPlanExhausted,
			[5]uint64{}, 0, 1},
		{"not sent, then a read timeout retried on the same node", []target{{name: "a", errs: []error{retry.ErrNotSent}},
			{name: "b", errs: []error{noData}}}, nil,
			[5]uint64{retry.CauseRequestAborted: 1, retry.CauseReadTimeout: 1}, 1, 0},
		{"every node overloaded", []target{{name: "a", errs: []error{retry.ErrOverloaded}},
			{name: "b", errs: []error{retry.ErrOverloaded}}}, retry.ErrPlanExhausted,
			[5]uint64{retry.CauseErrorResponse: 1}, 0, 1},
	}
	for _, tc := range cases {
		for _, mode := range executorModes {
			t.Run(tc.name+"/"+mode.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					ex := newExecutor(t, retry.Config{Speculation: mode.spec})
					cl := newCluster()
					_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), tc.plan, cl.attempt)
					if tc.reason == nil {
						require.NoError(t, err)
					} else {
						require.ErrorIs(t, err, tc.reason)
					}
					m := ex.Metrics()
					assert.Equal(t, tc.retries[:], m.Retries[:])
					assert.Equal(t, tc.successes, m.RetrySuccesses)
					assert.Equal(t, tc.exhausted, m.Exhausted)
				})
			})
		}
	}
}

// A policy that always retries on the same target is held to MaxRetries:
// MaxRetries+1 attempts, then ErrTooManyRetries, counted as exhaustion.
func TestMaxRetriesBoundsAPolicyThatNeverGivesUp(t *testing.T) {
	for _, mode := range executorModes {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				pol := &recorder{answer: func(s retry.Statement) retry.Verdict { return same(s.Level) }}
				ex := newExecutor(t, retry.Config{Speculation: mode.spec, Policy: pol, MaxRetries: 3})
				calls := 0
				_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []string{"a", "b"},
					func(context.Context, string, c.Level) (string, error) { calls++; return "", retry.ErrOverloaded })
				require.ErrorIs(t, err, retry.ErrTooManyRetries)
				assert.Equal(t, 4, calls)
				m := ex.Metrics()
				assert.Equal(t, uint64(3), m.TotalRetries())
				assert.Equal(t, uint64(1), m.Exhausted)
				n := make([]int, 0, 4)
				for _, q := range pol.questions() {
					n = append(n, q.n)
				}
				assert.Equal(t, []int{0, 1, 2, 3}, n, "the policy is told each retry count")
			})
		})
	}
}
