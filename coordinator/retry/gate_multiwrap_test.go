package retry_test

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

var errAdapter = errors.New("adapter: node 2")

// An error that fmt.Errorf wraps twice ("%w: %w") labels one request: only
// the branches of an errors.Join are requests of their own. A read timeout
// or a request not sent under a label of the adapter's passes the gate as
// it does alone, and a request not sent still takes no retry from the
// policy's allowance; but a label that itself says the request went out (a
// lost connection) closes the gate. So does an adapter's label of
// ErrServerError or ErrOverloaded over every error the server answered:
// only a join's branch that says nothing else is an error response that may
// have been applied (TestGateClosesOnANotSentJoinedToARequestSent); a
// reviewer found such labels closing the gate once joins were judged
// branch by branch.
func TestGateTakesAnErrorWrappedTwiceForOneRequest(t *testing.T) {
	failures := []struct {
		name     string
		err      error
		callback string
		count    int // the retry count the policy is told on the second failure
	}{
		{"a labelled read timeout", fmt.Errorf("%w: %w", errAdapter, readTimeout(c.Quorum, 2, 1, false)),
			"OnReadTimeout", 1},
		{"a labelled unavailable error", fmt.Errorf("%w: %w", errAdapter, unavailable(c.Quorum, 2, 1)),
			"OnUnavailable", 1},
		{"a labelled request not sent", fmt.Errorf("%w: %w", errAdapter, retry.ErrNotSent), "OnRequestAborted", 0},
		{"a labelled aborted request not sent", fmt.Errorf("%w: %w", errAdapter,
			&retry.RequestAbortedError{Err: retry.ErrNotSent}), "OnRequestAborted", 0},
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
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		cl := newCluster()
		lost := fmt.Errorf("%w: %w", retry.ErrConnectionClosed, readTimeout(c.Quorum, 2, 2, false))
		_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.NotIdempotent),
			[]target{{name: "a", errs: []error{lost}}, {name: "b"}}, cl.attempt)
		require.ErrorIs(t, err, retry.ErrNotIdempotent)
	})
}
