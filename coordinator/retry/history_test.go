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

// A success has no cause nor verdict: its record says "succeeded" rather
// than the zero READ_TIMEOUT and RETHROW.
func TestAttemptRecordString(t *testing.T) {
	tests := []struct {
		r    retry.AttemptRecord
		want string
	}{
		{retry.AttemptRecord{Target: 1, Level: c.Quorum}, "target 1 at QUORUM: succeeded"},
		{retry.AttemptRecord{Target: 2, Level: c.One, Speculative: true}, "target 2 at ONE (speculative): succeeded"},
		{retry.AttemptRecord{Level: c.Quorum, Err: overloaded, Cause: retry.CauseErrorResponse,
			Verdict: next(c.Quorum)}, "target 0 at QUORUM: ERROR_RESPONSE (retry: coordinator overloaded): " +
			"RETRY_NEXT at QUORUM"},
		{retry.AttemptRecord{Level: c.Quorum, Err: overloaded, Cause: retry.CauseErrorResponse,
			Verdict: next(c.Quorum), Reason: retry.ErrBudgetExhausted}, "target 0 at QUORUM: ERROR_RESPONSE " +
			"(retry: coordinator overloaded): RETRY_NEXT at QUORUM; stopped: retry: retry budget exhausted"},
		{retry.AttemptRecord{Level: c.Quorum, Err: overloaded, Cause: retry.CauseErrorResponse,
			Reason: retry.ErrRethrown}, "target 0 at QUORUM: ERROR_RESPONSE (retry: coordinator overloaded): RETHROW"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.r.String())
		assert.Equal(t, tt.want, fmt.Sprintf("%+v", tt.r), "as a driver would log it")
	}
}

// Each failure's record says why no attempt followed it, the verdict it
// got being what the policy asked for; the last one's Reason is the
// statement's.
func TestRecordSaysWhyNoRetryFollowed(t *testing.T) {
	forever := &recorder{answer: func(s retry.Statement) retry.Verdict { return same(s.Level) }}
	tests := []struct {
		name    string
		cfg     retry.Config
		idem    retry.Idempotence
		verdict retry.Verdict
		reason  error
	}{
		{"budget", retry.Config{}, retry.Idempotent, next(c.One), retry.ErrBudgetExhausted},
		{"plan exhausted", retry.Config{}, retry.Idempotent, next(c.One), retry.ErrPlanExhausted},
		{"MaxRetries", retry.Config{Policy: forever, MaxRetries: 1}, retry.Idempotent, same(c.One),
			retry.ErrTooManyRetries},
		{"deadline", retry.Config{Backoff: func(int) time.Duration { return time.Hour }}, retry.Idempotent,
			next(c.One), retry.ErrBackoffPastDeadline},
		{"rethrown", retry.Config{Policy: retry.FallthroughPolicy{}}, retry.Idempotent, rethrown,
			retry.ErrRethrown},
		{"gate", retry.Config{}, retry.NotIdempotent, rethrown, retry.ErrNotIdempotent},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			if tt.name == "budget" {
				tt.cfg.Budget = newBudget(t, retry.BudgetConfig{Percent: 0})
			}
			ex := newExecutor(t, tt.cfg)
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			cl := newCluster()
			plan := []target{{name: "a", errs: []error{overloaded, overloaded}}}
			if tt.name == "budget" || tt.name == "deadline" {
				plan = append(plan, target{name: "b"})
			}
			res, err := retry.Execute(ctx, ex, stmt(c.One, tt.idem), plan, cl.attempt)
			var xe *retry.ExecutionError
			require.ErrorAs(t, err, &xe, tt.name)
			last := res.Attempts.At(res.Attempts.Len() - 1)
			assert.Equal(t, tt.verdict, last.Verdict, tt.name)
			assert.Equal(t, tt.reason, last.Reason, tt.name)
			assert.Equal(t, xe.Reason, last.Reason, tt.name)
			for i := range res.Attempts.Len() - 1 {
				assert.NoError(t, res.Attempts.At(i).Reason, "%s: a retry followed attempt %d", tt.name, i)
			}
		})
	}
}

// A retry that never started, cancelled during its backoff by the context
// or by another attempt's success, is why nothing followed its failure.
func TestRecordSaysTheRetryWasCancelled(t *testing.T) {
	for _, spec := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			cfg := retry.Config{Backoff: func(int) time.Duration { return time.Second }}
			if spec {
				cfg.Speculation = retry.FixedDelay(time.Hour)
			}
			ex := newExecutor(t, cfg)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			time.AfterFunc(100*ms, cancel)
			cl := newCluster()
			plan := []target{{name: "a", errs: []error{overloaded}}, {name: "b"}}
			res, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
			require.ErrorIs(t, err, context.Canceled)
			require.Equal(t, 1, res.Attempts.Len())
			assert.Equal(t, next(c.One), res.Attempts.At(0).Verdict)
			assert.Equal(t, context.Canceled, res.Attempts.At(0).Reason, "speculating=%v", spec)
		})
	}
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Backoff: func(int) time.Duration { return time.Hour },
			Speculation: retry.FixedDelay(50 * ms)})
		cl := newCluster()
		rt := readTimeout(c.Quorum, 2, 2, false) // DefaultPolicy: RETRY_SAME
		plan := []target{{name: "a", delay: 10 * ms, errs: []error{rt}}, {name: "b", delay: 10 * ms}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		require.Equal(t, 2, res.Attempts.Len())
		assert.Equal(t, context.Canceled, res.Attempts.At(0).Reason, "the winner cancelled the retry")
		assert.Equal(t, "target 1 at QUORUM (speculative): succeeded", res.Attempts.At(1).String())
	})
}

// A context that ends while a retry is being decided (here from OnRetry)
// leaves the retry unstarted: its budget token goes back, speculating or not.
func TestCancelWhileDecidingARetryRefundsIt(t *testing.T) {
	for _, spec := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			b := newBudget(t, retry.BudgetConfig{Percent: 0, MinPerSecond: 0.1, Window: 10 * time.Second})
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			cfg := retry.Config{Budget: b, OnRetry: func(retry.RetryEvent) { cancel() }}
			if spec {
				cfg.Speculation = retry.FixedDelay(time.Hour)
			}
			ex := newExecutor(t, cfg)
			cl := newCluster()
			plan := []target{{name: "a", errs: []error{overloaded}}, {name: "b"}}
			_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
			require.ErrorIs(t, err, context.Canceled)
			assert.Equal(t, 1.0, b.Available(time.Now()), "speculating=%v", spec)
		})
	}
}

// At panics on an index one past the last attempt, like a slice index, and
// says so in its own words: an empty History (an ExecutionError made by
// hand, a Result of no attempt) holds no record at 0, not a zero one.
func TestHistoryAtPanicsOnePastTheLastAttempt(t *testing.T) {
	var empty retry.History
	assert.PanicsWithValue(t, "retry: History index out of range", func() { empty.At(0) })
	assert.PanicsWithValue(t, "retry: History index out of range", func() { empty.At(-1) })
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []int{1},
			func(context.Context, int, c.Level) (int, error) { return 1, nil })
		require.NoError(t, err)
		require.Equal(t, 1, res.Attempts.Len())
		assert.PanicsWithValue(t, "retry: History index out of range", func() { res.Attempts.At(1) })
	})
}

// A History is read where a Result is returned, not addressable: with
// pointer receivers, Execute(...).Attempts.Len() did not compile (found by
// a user).
func TestHistoryReadsFromAReturnedResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		execute := func() retry.Result[int] {
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []int{1},
				func(context.Context, int, c.Level) (int, error) { return 7, nil })
			require.NoError(t, err)
			return res
		}
		assert.Equal(t, 1, execute().Attempts.Len())
		assert.Equal(t, c.Quorum, execute().Attempts.At(0).Level)
		for i, a := range execute().Attempts.All() {
			assert.Equal(t, 0, i)
			assert.NoError(t, a.Err)
		}
	})
}
