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

// An attempt that ran two writes and joined their errors: one timed out
// after a replica acknowledged it, which DowngradingPolicy ignores (it is
// durable there), but the other timed out with fewer acknowledgements.
// (One no replica acknowledged is rethrown, and one unavailable or whose
// connection was lost retried: see
// TestJoinedWriteTimeoutsAreJudgedByTheMostDangerous and
// TestJoinedRequestsOfDifferentCausesAreJudgedByTheStrictest.) Result.Level
// is the level "the ignored failure shows it reached": the weakest any of
// the writes reached, not the first's, which told the application that its
// statement is on more replicas than half of it is.
func TestIgnoredJoinedWritesReportTheWeakestLevel(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want c.Level
	}{
		{"writes acknowledged twice and once",
			errors.Join(writeTimeout(c.All, c.WriteSimple, 3, 2), writeTimeout(c.All, c.WriteSimple, 3, 1)), c.One},
		{"writes acknowledged three and two times",
			errors.Join(writeTimeout(c.All, c.WriteBatch, 5, 3), writeTimeout(c.All, c.WriteBatch, 5, 2)), c.Two},
		{"one write acknowledged twice", writeTimeout(c.All, c.WriteSimple, 3, 2), c.Two},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var downgrades []retry.Downgrade
				ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{},
					OnDowngrade: func(d retry.Downgrade) { downgrades = append(downgrades, d) }})
				cl := newCluster()
				plan := []target{{name: "a", errs: []error{tt.err}}, {name: "b"}}
				res, err := retry.Execute(t.Context(), ex, stmt(c.All, retry.Idempotent), plan, cl.attempt)
				require.NoError(t, err)
				require.True(t, res.Ignored)
				assert.Equal(t, tt.want, res.Level)
				assert.True(t, res.Downgraded())
				require.Len(t, downgrades, 1)
				assert.Equal(t, tt.want, downgrades[0].To)
				assert.True(t, downgrades[0].Ignored)
			})
		})
	}
}
