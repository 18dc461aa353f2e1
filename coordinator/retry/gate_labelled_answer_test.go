package retry_test

import (
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// An adapter that labels every error the server answered with
// ErrServerError or ErrOverloaded ("%w: %w") labels one request, as a
// label of its own does (TestGateTakesAnErrorWrappedTwiceForOneRequest):
// an unavailable error or a read timeout under it applied nothing, and is
// judged by its own callback for a statement that is not idempotent, as
// Policy's doc says and as it was before joined errors were judged branch
// by branch; a request not sent under it takes no retry from the policy's
// allowance. Only a join's branch that says nothing else is an error
// response that may have been applied (TestGateClosesOnANotSentJoinedToARequestSent).
func TestGateTakesAnAnswerLabelledAsAnErrorResponseForOneRequest(t *testing.T) {
	failures := []struct {
		name     string
		err      error
		callback string
		count    int // the retry count the policy is told on the second failure
	}{
		{"an unavailable error labelled a server error", fmt.Errorf("%w: %w", retry.ErrServerError,
			unavailable(c.Quorum, 2, 1)), "OnUnavailable", 1},
		{"a read timeout labelled overloaded", fmt.Errorf("%w: %w", retry.ErrOverloaded,
			readTimeout(c.Quorum, 2, 1, false)), "OnReadTimeout", 1},
		{"a request not sent labelled overloaded", fmt.Errorf("%w: %w", retry.ErrOverloaded,
			&retry.RequestAbortedError{Err: retry.ErrNotSent}), "OnRequestAborted", 0},
	}
	for _, f := range failures {
		t.Run(f.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				pol := &recorder{}
				ex := newExecutor(t, retry.Config{Policy: pol})
				cl := newCluster()
				plan := []target{{name: "a", errs: []error{f.err}}, {name: "b", errs: []error{f.err}}, {name: "c"}}
				res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.NotIdempotent), plan, cl.attempt)
				require.NoError(t, err)
				assert.Equal(t, "c", res.Value)
				q := stmt(c.Quorum, retry.NotIdempotent)
				assert.Equal(t, []asked{{f.callback, q, 0}, {f.callback, q, f.count}}, pol.questions())
			})
		})
	}
}
