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

// An attempt that ran two requests and joined their errors: one refused
// before it was sent (ErrNotSent), or a read timeout or an unavailable
// error, and the other sent and then lost, or answered with an error
// response. The second may have been applied, so a statement that is not
// idempotent must be rethrown by the gate, as after that part alone, and
// the policy not asked (README: "nor after a read timeout or an
// unavailable error joined to one"); an idempotent one is judged as
// before, but the retry after it counts, since a request went out.
func TestGateClosesOnANotSentJoinedToARequestSent(t *testing.T) {
	notSent := &retry.RequestAbortedError{Err: retry.ErrNotSent}
	sent := &retry.RequestAbortedError{Err: errors.New("stream reset")}
	failures := []struct {
		name string
		err  error
		asks int // questions per attempt: a join of a timeout asks for each request
	}{
		{"an abort not sent and an abort sent", errors.Join(notSent, sent), 1},
		{"an abort sent and a request not sent", errors.Join(sent, fmt.Errorf("node 3: %w", retry.ErrNotSent)), 1},
		{"a request not sent and an overloaded target", errors.Join(retry.ErrNotSent, retry.ErrOverloaded), 1},
		{"a request not sent and an unknown error", errors.Join(retry.ErrNotSent, errors.New("boom")), 1},
		{"a read timeout and an overloaded target", errors.Join(readTimeout(c.Quorum, 2, 1, false), retry.ErrOverloaded),
			2},
		{"an unavailable error and an unknown error", errors.Join(unavailable(c.Quorum, 2, 1), errors.New("boom")), 2},
	}
	for _, f := range failures {
		for _, idem := range []retry.Idempotence{retry.NotIdempotent, retry.Idempotent} {
			t.Run(f.name+"/"+idem.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					pol := &recorder{}
					ex := newExecutor(t, retry.Config{Policy: pol})
					cl := newCluster()
					plan := []target{{name: "a", errs: []error{f.err}}, {name: "b", errs: []error{f.err}}, {name: "c"}}
					_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, idem), plan, cl.attempt)
					if idem == retry.NotIdempotent {
						require.ErrorIs(t, err, retry.ErrNotIdempotent)
						assert.Empty(t, pol.questions(), "the policy must not be asked")
						assert.Equal(t, []string{"a"}, targets(cl.log()), "the statement must not run again")
						return
					}
					require.NoError(t, err)
					qs := pol.questions()
					require.Len(t, qs, 2*f.asks)
					assert.Equal(t, []int{0, 1}, []int{qs[0].n, qs[f.asks].n}, "each retry after a request sent counts")
				})
			})
		}
	}
}

// IdempotentOnlyPolicy and a ladder past its last rung go on past a
// target not sent to, but not past one whose joined error says a request
// was sent as well.
func TestPoliciesDoNotSkipARequestSentJoinedToANotSent(t *testing.T) {
	joined := errors.Join(&retry.RequestAbortedError{Err: retry.ErrNotSent},
		&retry.RequestAbortedError{Err: errors.New("stream reset")})
	one := stmt(c.One, retry.Idempotent)
	assert.Equal(t, rethrown, retry.IdempotentOnlyPolicy{}.OnRequestAborted(one, joined, 1))
	ladder, err := retry.NewLadderPolicy(c.One)
	require.NoError(t, err)
	assert.Equal(t, rethrown, ladder.OnRequestAborted(one, joined, 1))
}
