package retry_test

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// The idempotence gate runs before any policy: a statement that is not
// idempotent is rethrown after a write timeout, an error response or an
// aborted request without the policy being asked. Read timeouts,
// unavailable errors and requests never sent always reach the policy.
func TestIdempotenceGate(t *testing.T) {
	failures := []struct {
		err      error
		callback string
		gated    bool
	}{
		{readTimeout(c.Quorum, 2, 1, false), "OnReadTimeout", false},
		{unavailable(c.Quorum, 2, 1), "OnUnavailable", false},
		{writeTimeout(c.Quorum, c.WriteSimple, 2, 1), "OnWriteTimeout", true},
		{retry.ErrOverloaded, "OnErrorResponse", true},
		{errors.New("anything"), "OnErrorResponse", true},
		{retry.ErrConnectionClosed, "OnRequestAborted", true},
		{&retry.RequestAbortedError{Err: errors.New("reset")}, "OnRequestAborted", true},
		{retry.ErrNotSent, "OnRequestAborted", false},
		{&retry.RequestAbortedError{Err: retry.ErrNotSent}, "OnRequestAborted", false},
	}
	statements := []struct {
		name       string
		idem       retry.Idempotence
		defaultIdm bool
		resolved   retry.Idempotence
	}{
		{"unset, default false", retry.IdempotenceUnset, false, retry.NotIdempotent},
		{"not idempotent", retry.NotIdempotent, true, retry.NotIdempotent},
		{"idempotent", retry.Idempotent, false, retry.Idempotent},
		{"unset, default true", retry.IdempotenceUnset, true, retry.Idempotent},
	}
	for _, f := range failures {
		for _, st := range statements {
			t.Run(f.callback+"/"+st.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					pol := &recorder{}
					ex := newExecutor(t, retry.Config{Policy: pol, DefaultIdempotent: st.defaultIdm})
					cl := newCluster()
					plan := []target{{name: "a", errs: []error{f.err}}, {name: "b"}}
					res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, st.idem), plan, cl.attempt)
					if f.gated && st.resolved == retry.NotIdempotent {
						require.ErrorIs(t, err, retry.ErrNotIdempotent)
						assert.ErrorIs(t, err, f.err)
						assert.Empty(t, pol.questions(), "the policy must not be asked")
						assert.Len(t, cl.log(), 1)
						return
					}
					require.NoError(t, err)
					assert.Equal(t, "b", res.Value)
					// The policy sees the failed attempt's level and the
					// resolved idempotence.
					assert.Equal(t, []asked{{f.callback, stmt(c.Quorum, st.resolved), 0}}, pol.questions())
				})
			})
		}
	}
}
