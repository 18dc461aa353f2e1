package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A threshold within 1/64 of the read timeout is at it, as far as the
// overload switch can tell (README, *Hedges are budgeted*): a slow read
// under it is one that no hedge was due for, as under a threshold at the
// timeout, not one the switch held a hedge back from. Each such read
// counted a SuppressedOverload, and traced one, where a threshold 1 ms
// later counted none.
func TestAThresholdAtTheTimeoutSuppressesNoSlowRead(t *testing.T) {
	for _, th := range []string{"63ms", "64ms", "100ms"} { // the read timeout is 64 ms
		t.Run(th, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{ReadTimeout: ms(64),
					Snitch: coordinator.SnitchConfig{Disabled: true}, Tables: map[string]coordinator.TableOptions{tbl: policy(t, th)}})
				for _, id := range []string{A, B, C} {
					e.behave(t, id, constant(ms(100)))
				}
				res, _, err := e.read(consistency.Quorum)
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout)
				m := e.c.Metrics().Total
				assert.Zero(t, m.SuppressedOverload, "no hedge was due")
				assert.Zero(t, m.SpeculativeRetries)
				assert.Equal(t, coordinator.NotSuppressed, res.Trace.Hedge.Suppressed)
				settle()
			})
		})
	}
}
