package retry_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// An attempt that joins two requests' errors, one of them a nil pointer (a
// bug of the attempt function) and the other a real read timeout, loses
// only the nil: it stands as an error wrapping ErrTypedNil beside the read
// timeout, whose numbers the policy and the caller still see. A lone nil,
// or one a wrapper other than errors.Join holds, is still replaced whole.
func TestANilPointerJoinedToARealErrorKeepsItsNumbers(t *testing.T) {
	var nilRT *c.ReadTimeoutError
	var nilWF *c.WriteFailureError
	for _, bad := range []error{nilRT, nilWF, fmt.Errorf("node 3: %w", nilRT)} {
		for _, joined := range []error{errors.Join(bad, readTimeout(c.Quorum, 2, 1, false)),
			errors.Join(errors.Join(readTimeout(c.Quorum, 2, 1, false), bad), errors.New("other"))} {
			synctest.Test(t, func(t *testing.T) {
				pol := &recorder{answer: func(retry.Statement) retry.Verdict { return rethrown }}
				ex := newExecutor(t, retry.Config{Policy: pol})
				attempt := func(context.Context, string, c.Level) (string, error) { return "", joined }
				var res retry.Result[string]
				var err error
				require.Nil(t, panicOf(func() {
					res, err = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []string{"a", "b"},
						attempt)
				}), "%T", bad)
				require.NotPanics(t, func() { _ = err.Error() })
				assert.ErrorIs(t, err, retry.ErrTypedNil)
				var rt *c.ReadTimeoutError
				require.ErrorAs(t, err, &rt, "the read timeout is lost")
				require.NotNil(t, rt)
				assert.Equal(t, 2, rt.BlockFor)
				assert.Equal(t, 1, rt.Received)
				assert.Equal(t, retry.CauseReadTimeout, res.Attempts.At(0).Cause)
				assert.Contains(t, pol.questions(), asked{"OnReadTimeout", stmt(c.Quorum, retry.Idempotent), 0})
			})
		}
	}
}

// A lone nil pointer, or one behind a wrapper that is not errors.Join, is
// still an error response standing for the whole error.
func TestANilPointerNotJoinedStillReplacesTheError(t *testing.T) {
	var nilRT *c.ReadTimeoutError
	for _, bad := range []error{nilRT, fmt.Errorf("read: %w", errors.Join(nilRT, readTimeout(c.Quorum, 2, 1, false)))} {
		synctest.Test(t, func(t *testing.T) {
			ex := newExecutor(t, retry.Config{})
			attempt := func(context.Context, string, c.Level) (string, error) { return "", bad }
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), []string{"a"}, attempt)
			require.ErrorIs(t, err, retry.ErrTypedNil)
			var rt *c.ReadTimeoutError
			assert.False(t, errors.As(err, &rt))
			assert.Equal(t, retry.CauseErrorResponse, res.Attempts.At(0).Cause)
		})
	}
}
