package retry_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// panicOf returns what f panics with, nil if it returns.
func panicOf(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// asErr returns p as an error, or one that says what p is.
func asErr(p any) error {
	if err, ok := p.(error); ok {
		return err
	}
	return fmt.Errorf("panicked with %T %v", p, p)
}

// buggyPolicy panics on an unavailable error, with a runtime error.
type buggyPolicy struct{ retry.DefaultPolicy }

func (buggyPolicy) OnUnavailable(_ retry.Statement, _ *c.UnavailableError, retries int) retry.Verdict {
	var counts []int
	counts[retries]++ // out of range: panics with a runtime.Error
	return retry.Verdict{}
}

// A panicking policy fails the statement, as the Java driver fails the
// request, instead of crashing the caller, speculating or not; a
// speculating statement ends at once, its other attempts cancelled, and
// nothing is left running (goleak, in TestMain).
func TestPolicyPanicFailsTheStatement(t *testing.T) {
	for _, spec := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			cfg := retry.Config{Policy: buggyPolicy{}}
			if spec {
				cfg.Speculation = retry.FixedDelay(10 * ms)
			}
			ex := newExecutor(t, cfg)
			cl := newCluster()
			un := unavailable(c.Quorum, 2, 1)
			plan := []target{{name: "a", delay: 20 * ms, errs: []error{un}}, {name: "b", delay: 100 * ms}}
			var res retry.Result[string]
			var err error
			require.Nil(t, panicOf(func() {
				res, err = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
			}), "speculating=%v", spec)
			var pe *retry.PolicyPanicError
			require.ErrorAs(t, err, &pe, "speculating=%v", spec)
			var re runtime.Error
			assert.ErrorAs(t, err, &re, "the panic's runtime error")
			assert.Contains(t, string(pe.Stack), "buggyPolicy.OnUnavailable")
			var xe *retry.ExecutionError
			require.ErrorAs(t, err, &xe)
			assert.Equal(t, error(pe), xe.Reason)
			assert.Equal(t, error(un), xe.Err)
			assert.Contains(t, err.Error(), "retry policy panicked")
			assert.Equal(t, 20*ms, cl.elapsed(), "speculating=%v: ends at once", spec)
			assert.Equal(t, 1, res.Attempts.Len())
		})
	}
}

// explode is an attempt function whose name a stack trace shows.
func explode(ctx context.Context, tg string, _ c.Level) (string, error) {
	if tg == "b" {
		panic("boom in attempt")
	}
	<-ctx.Done()
	return "", ctx.Err()
}

// A speculative attempt's panic is re-raised on the caller's goroutine with
// the stack of the attempt's goroutine, which the re-raise would lose.
func TestSpeculativeAttemptPanicKeepsItsStack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := speculating(t, retry.FixedDelay(10*ms))
		p := panicOf(func() {
			_, _ = retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), []string{"a", "b"}, explode)
		})
		var ap *retry.AttemptPanicError
		require.ErrorAs(t, asErr(p), &ap)
		assert.Equal(t, "boom in attempt", ap.Value)
		assert.Contains(t, string(ap.Stack), "retry_test.explode")
		assert.Contains(t, ap.Error(), "boom in attempt")
		assert.Contains(t, ap.Error(), "retry_test.explode", "printed when the panic crashes the program")
	})
}

// A panic value that is an error stays reachable through the wrappers.
func TestPanicErrorsUnwrap(t *testing.T) {
	boom := errors.New("boom")
	assert.ErrorIs(t, &retry.AttemptPanicError{Value: boom}, boom)
	assert.ErrorIs(t, &retry.PolicyPanicError{Value: boom}, boom)
	assert.NoError(t, errors.Unwrap(&retry.PolicyPanicError{Value: "text"}))
}
