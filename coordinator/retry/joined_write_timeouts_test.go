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

// An attempt that ran two writes joined their write timeouts: the first,
// alone, DowngradingPolicy would ignore (acknowledged once) or DefaultPolicy
// retry (BATCH_LOG), but the second it rethrows alone: a counter write,
// never safe to ignore or replay (the Java driver 4's
// ConsistencyDowngradingRetryPolicy.onWriteTimeoutVerdict), a CAS write, or
// a write no replica acknowledged. The statement is judged by its most
// dangerous write, in either order; asked of the first alone, the policy
// ignored a counter timeout as a success.
func TestJoinedWriteTimeoutsAreJudgedByTheMostDangerous(t *testing.T) {
	simple := func() *c.WriteTimeoutError { return writeTimeout(c.Quorum, c.WriteSimple, 2, 1) }
	tests := []struct {
		name   string
		policy retry.Policy
		first  error
		second error
		want   retry.Decision
	}{
		{"downgrading: simple and counter", retry.DowngradingPolicy{},
			simple(), writeTimeout(c.Quorum, c.WriteCounter, 2, 1), retry.Rethrow},
		{"downgrading: simple and CAS", retry.DowngradingPolicy{},
			simple(), writeTimeout(c.Quorum, c.WriteCAS, 2, 1), retry.Rethrow},
		{"downgrading: simple and unacknowledged simple", retry.DowngradingPolicy{},
			simple(), writeTimeout(c.Quorum, c.WriteSimple, 2, 0), retry.Rethrow},
		{"downgrading: simple and batch log", retry.DowngradingPolicy{},
			simple(), writeTimeout(c.Quorum, c.WriteBatchLog, 2, 1), retry.RetrySame},
		{"ladder: simple and counter", mustLadder(t, c.One),
			simple(), writeTimeout(c.Quorum, c.WriteCounter, 2, 1), retry.Rethrow},
		{"default: batch log and simple", retry.DefaultPolicy{},
			writeTimeout(c.Quorum, c.WriteBatchLog, 2, 1), simple(), retry.Rethrow},
		{"downgrading: simple and simple", retry.DowngradingPolicy{},
			simple(), simple(), retry.Ignore},
	}
	for _, tt := range tests {
		for _, order := range [][2]error{{tt.first, tt.second}, {tt.second, tt.first}} {
			t.Run(tt.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					ex := newExecutor(t, retry.Config{Policy: tt.policy})
					cl := newCluster()
					joined := errors.Join(order[0], order[1])
					plan := []target{{name: "a", errs: []error{joined}}, {name: "b"}}
					res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan,
						cl.attempt)
					h := res.Attempts
					if tt.want == retry.Rethrow {
						var xerr *retry.ExecutionError
						require.ErrorAs(t, err, &xerr)
						h = xerr.Attempts
						assert.Len(t, cl.log(), 1)
					} else {
						require.NoError(t, err)
					}
					require.Positive(t, h.Len())
					assert.Equal(t, tt.want, h.At(0).Verdict.Decision)
				})
			})
		}
	}
}
