package retry_test

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// byAlive answers an unavailable error by its Alive count: bad for 0, a
// retry on the same target at ONE otherwise.
type byAlive struct {
	retry.DefaultPolicy
	bad retry.Verdict
}

func (p byAlive) OnUnavailable(_ retry.Statement, err *c.UnavailableError, _ int) retry.Verdict {
	if err.Alive == 0 {
		return p.bad
	}
	return same(c.One)
}

// A verdict the executor refuses (an undefined decision, a retry at an
// undefined level, or at ANY, the zero Level a policy forgot to set, for a
// statement not at ANY) ends the statement with ErrInvalidVerdict when its
// request fails alone. Joined to a request retried at a stronger level, it
// was the weaker verdict and the join was retried: a policy's bug hidden
// by the join, and its verdict no longer the strictest its requests would
// get alone. It now holds, whatever the order.
func TestJoinedInvalidVerdictStops(t *testing.T) {
	for _, tt := range []struct {
		name string
		bad  retry.Verdict
	}{
		{"level left zero", retry.Verdict{Decision: retry.RetrySame}},
		{"undefined decision", retry.Verdict{Decision: 9, Level: c.Any}},
		{"ANY", next(c.Any)},
	} {
		for _, first := range []bool{true, false} {
			t.Run(tt.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					ex := newExecutor(t, retry.Config{Policy: byAlive{bad: tt.bad}})
					cl := newCluster()
					bad, good := unavailable(c.Quorum, 2, 0), unavailable(c.Quorum, 2, 1)
					joined := errors.Join(bad, good)
					if !first {
						joined = errors.Join(good, bad)
					}
					plan := []target{{name: "a", errs: []error{joined}}, {name: "b"}}
					_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan,
						cl.attempt)
					assert.ErrorIs(t, err, retry.ErrInvalidVerdict)
					assert.Len(t, cl.log(), 1)
				})
			})
		}
	}
}
