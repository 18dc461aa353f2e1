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

// An attempt that runs two requests at once (a row and its copy in a table
// of another key, or a read beside a write) and joins their errors: one
// part may have been applied (a write that timed out, partly failed, or
// lost its connection), while the other found too few replicas alive or
// timed out reading. Classify names the joined error by its most precise
// part (a read timeout, an unavailable error), but the statement may be
// applied all the same: one that is not idempotent is rethrown by the gate,
// as after that part alone, and the policy is not asked. So is a
// RequestAbortedError around a read timeout, which says the target may have
// executed the request. An idempotent statement is judged by each request
// a join holds, by the callback of its own cause (see
// TestJoinedRequestsOfDifferentCausesAreJudgedByTheStrictest).
func TestGateClosesOnAJoinedErrorThatMayBeApplied(t *testing.T) {
	wt := writeTimeout(c.Quorum, c.WriteSimple, 2, 1)
	failures := []struct {
		name      string
		err       error
		callbacks []string
	}{
		{"an unavailable error and a write timeout", errors.Join(unavailable(c.Quorum, 2, 1), wt),
			[]string{"OnUnavailable", "OnWriteTimeout"}},
		{"a read timeout and a write timeout", errors.Join(readTimeout(c.Quorum, 2, 1, false), wt),
			[]string{"OnReadTimeout", "OnWriteTimeout"}},
		{"an unavailable error and a lost connection", errors.Join(unavailable(c.Quorum, 2, 1), retry.ErrConnectionClosed),
			[]string{"OnUnavailable", "OnRequestAborted"}},
		{"an unavailable error and a write failure", errors.Join(unavailable(c.Quorum, 2, 1), writeFailure(errors.New("disk full"))),
			[]string{"OnUnavailable", "OnErrorResponse"}},
		{"an aborted read timeout", &retry.RequestAbortedError{Err: readTimeout(c.Quorum, 2, 1, false)},
			[]string{"OnReadTimeout"}},
		{"a request not sent and a lost connection", errors.Join(retry.ErrNotSent, retry.ErrConnectionClosed),
			[]string{"OnRequestAborted"}},
		{"a lost heartbeat and a request not sent", errors.Join(fmt.Errorf("node 2: %w", retry.ErrHeartbeatFailed),
			&retry.RequestAbortedError{Err: retry.ErrNotSent}), []string{"OnRequestAborted"}},
	}
	for _, f := range failures {
		for _, idem := range []retry.Idempotence{retry.NotIdempotent, retry.Idempotent} {
			t.Run(f.name+"/"+idem.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					pol := &recorder{}
					ex := newExecutor(t, retry.Config{Policy: pol})
					cl := newCluster()
					plan := []target{{name: "a", errs: []error{f.err}}, {name: "b"}}
					res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, idem), plan, cl.attempt)
					if idem == retry.NotIdempotent {
						require.ErrorIs(t, err, retry.ErrNotIdempotent)
						assert.Empty(t, pol.questions(), "the policy must not be asked")
						assert.Equal(t, []string{"a"}, targets(cl.log()), "the statement must not run again")
						return
					}
					require.NoError(t, err)
					assert.Equal(t, "b", res.Value)
					var want []asked
					for _, cb := range f.callbacks {
						want = append(want, asked{cb, stmt(c.Quorum, idem), 0})
					}
					assert.Equal(t, want, pol.questions())
				})
			})
		}
	}
}

// Joined to a lost connection, a request not sent no longer stands for a
// target the statement never reached: the retry after it counts, as after
// the lost connection alone, so DefaultPolicy's one retry of the next
// target's unavailable error is spent.
func TestANotSentJoinedToALostConnectionCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{errors.Join(retry.ErrNotSent, retry.ErrConnectionClosed)}},
			{name: "b", errs: []error{unavailable(c.Quorum, 2, 1)}}, {name: "c"}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrRethrown)
		assert.Equal(t, []string{"a", "b"}, targets(cl.log()))
	})
}

// Nor do the policies that go on past every target not sent to treat it
// so: past IdempotentOnlyPolicy's one retry and a ladder's last rung, a
// lost connection joined to a request not sent is rethrown, as the lost
// connection alone.
func TestPoliciesDoNotSkipALostConnectionJoinedToANotSent(t *testing.T) {
	q := stmt(c.Quorum, retry.Idempotent)
	joined := errors.Join(retry.ErrNotSent, retry.ErrConnectionClosed)
	assert.Equal(t, rethrown, retry.IdempotentOnlyPolicy{}.OnRequestAborted(q, joined, 1))
	ladder, err := retry.NewLadderPolicy(c.One)
	require.NoError(t, err)
	assert.Equal(t, rethrown, ladder.OnRequestAborted(stmt(c.One, retry.Idempotent), joined, 1))
	assert.Equal(t, next(c.One), ladder.OnRequestAborted(stmt(c.One, retry.Idempotent), retry.ErrNotSent, 1))
}
