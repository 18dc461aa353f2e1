package retry_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/internal/typednil"
)

// An attempt that returns a nil pointer as its error, such as a nil
// *consistency.ReadTimeoutError, must not make a policy dereference it: it
// is an error response, recorded and returned as ErrTypedNil, so that the
// caller's errors.Is on the result cannot panic either.
func TestTypedNilErrorIsAnErrorResponse(t *testing.T) {
	var rt *c.ReadTimeoutError
	var wf *c.WriteFailureError
	var ab *retry.RequestAbortedError
	for _, bad := range []error{rt, wf, ab, fmt.Errorf("wrapped: %w", rt)} {
		for _, spec := range []bool{false, true} {
			synctest.Test(t, func(t *testing.T) {
				cfg := retry.Config{}
				if spec {
					cfg.Speculation = retry.FixedDelay(10 * ms)
				}
				ex := newExecutor(t, cfg)
				attempt := func(context.Context, string, c.Level) (string, error) { return "", bad }
				var res retry.Result[string]
				var err error
				require.Nil(t, panicOf(func() {
					res, err = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"},
						attempt)
				}), "%T", bad)
				require.ErrorIs(t, err, retry.ErrTypedNil, "%T", bad)
				assert.ErrorIs(t, err, retry.ErrRethrown, "DefaultPolicy rethrows an unknown error")
				assert.NotErrorIs(t, err, context.Canceled)
				assert.Contains(t, err.Error(), fmt.Sprintf("a nil %T", typednil.Find(bad)))
				assert.Equal(t, retry.CauseErrorResponse, res.Attempts.At(0).Cause)
			})
		}
	}
}

// A nil pointer wrapped by another error is not looked into.
func TestClassifyStopsAtANilPointer(t *testing.T) {
	var rt *c.ReadTimeoutError
	var wf *c.WriteFailureError
	for _, err := range []error{fmt.Errorf("read: %w", rt), fmt.Errorf("write: %w", wf)} {
		assert.Equal(t, retry.CauseErrorResponse, retry.Classify(err), "%v", err)
	}
}

// codeError is an error whose Is reads a field it never set.
type codeError struct{ code *int }

func (codeError) Error() string          { return "code error" }
func (e codeError) Is(target error) bool { return *e.code == 0 }

// An attempt whose error's own methods panic is an error response too,
// returned as an error that says so and wraps nothing: the policy's
// errors.As crashed the caller.
func TestAnErrorWhoseMethodsPanicIsAnErrorResponse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		attempt := func(context.Context, string, c.Level) (string, error) {
			return "", fmt.Errorf("adapter: %w", codeError{})
		}
		var res retry.Result[string]
		var err error
		require.Nil(t, panicOf(func() {
			res, err = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"}, attempt)
		}))
		require.ErrorContains(t, err, "whose methods panic")
		assert.NotErrorIs(t, err, context.Canceled)
		assert.Equal(t, retry.CauseErrorResponse, res.Attempts.At(0).Cause)
	})
}
