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

// An attempt that ran two requests joined their errors, of different
// causes. Classify prefers a read timeout, and the executor asked only the
// first read timeout's or unavailable error's callback: a counter write's
// timeout joined to a read timeout that DefaultPolicy retries was retried,
// though alone it is rethrown; under DowngradingPolicy a read timeout with
// enough answers and the data (rethrown alone) and one with too few
// (downgraded to ONE) were rethrown or downgraded by the order of the join;
// and an acknowledged SIMPLE write's timeout (ignored alone) joined to a
// write failure (rethrown alone), or to a write that applied nothing or
// lost its connection (retried alone), ended as a success at ANY. The join
// gets the strictest of its requests' verdicts, in either order.
func TestJoinedRequestsOfDifferentCausesAreJudgedByTheStrictest(t *testing.T) {
	tests := []struct {
		name          string
		policy        retry.Policy
		first, second error
		want          retry.Verdict
	}{
		{"default: read timeout without data and counter write", retry.DefaultPolicy{},
			readTimeout(c.Quorum, 2, 2, false), writeTimeout(c.Quorum, c.WriteCounter, 2, 1), rethrown},
		{"downgrading: read timeouts with data and with too few", retry.DowngradingPolicy{},
			readTimeout(c.Quorum, 2, 2, true), readTimeout(c.Quorum, 2, 1, false), rethrown},
		{"downgrading: unavailable errors of two and one alive", retry.DowngradingPolicy{},
			unavailable(c.Quorum, 3, 2), unavailable(c.Quorum, 3, 1), same(c.Two)},
		{"downgrading: acknowledged write and write failure", retry.DowngradingPolicy{},
			writeTimeout(c.Quorum, c.WriteSimple, 2, 1),
			&c.WriteFailureError{Level: c.Quorum, WriteType: c.WriteSimple, BlockFor: 2, Received: 1},
			rethrown},
		{"downgrading: acknowledged write and overloaded", retry.DowngradingPolicy{},
			writeTimeout(c.Quorum, c.WriteSimple, 2, 1), retry.ErrOverloaded, next(c.Quorum)},
		{"downgrading: acknowledged write and unavailable", retry.DowngradingPolicy{},
			writeTimeout(c.Quorum, c.WriteSimple, 2, 1), unavailable(c.Quorum, 2, 1), same(c.One)},
		{"downgrading: acknowledged write and lost connection", retry.DowngradingPolicy{},
			writeTimeout(c.Quorum, c.WriteSimple, 2, 1), retry.ErrConnectionClosed, next(c.Quorum)},
	}
	for _, tt := range tests {
		for _, order := range [][2]error{{tt.first, tt.second}, {tt.second, tt.first}} {
			t.Run(tt.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					ex := newExecutor(t, retry.Config{Policy: tt.policy})
					cl := newCluster()
					plan := []target{{name: "a", errs: []error{errors.Join(order[0], order[1])}}}
					res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan,
						cl.attempt)
					h := res.Attempts
					var xerr *retry.ExecutionError
					if errors.As(err, &xerr) {
						h = xerr.Attempts
					}
					require.Positive(t, h.Len())
					assert.Equal(t, tt.want, h.At(0).Verdict)
					assert.False(t, res.Ignored)
				})
			})
		}
	}
}
