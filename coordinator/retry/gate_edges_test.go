package retry_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// The gate closes on every attempt, not only the first: a statement that is
// not idempotent, downgraded to ONE after an unavailable error (which always
// reaches the policy), then timing out on its SIMPLE write at ONE, must be
// rethrown without asking the policy, which would otherwise Ignore the
// acknowledged write (Java's CqlRequestHandler: isIdempotent ?
// onWriteTimeoutVerdict : RETHROW). The failure is reported at ONE.
func TestGateClosesOnADowngradedRetry(t *testing.T) {
	for _, idem := range []retry.Idempotence{retry.NotIdempotent, retry.IdempotenceUnset} {
		synctest.Test(t, func(t *testing.T) {
			var downgrades []retry.Downgrade
			ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{},
				OnDowngrade: func(d retry.Downgrade) { downgrades = append(downgrades, d) }})
			cl := newCluster()
			plan := []target{{name: "a", errs: []error{unavailable(c.Quorum, 2, 1), writeTimeout(c.One, c.WriteSimple, 1, 0)}}}
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, idem), plan, cl.attempt)
			require.ErrorIs(t, err, retry.ErrNotIdempotent)
			assert.False(t, res.Ignored)
			var ee *retry.ExecutionError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, c.One, ee.Level)
			assert.Equal(t, []call{{target: "a", level: c.Quorum}, {target: "a", level: c.One}}, cl.log())
			m := ex.Metrics()
			assert.Zero(t, m.Ignores)
			assert.Equal(t, uint64(1), m.Retries[retry.CauseUnavailable])
			assert.Equal(t, uint64(1), m.Downgrades)
			require.Len(t, downgrades, 1)
			assert.False(t, downgrades[0].Ignored)
		})
	}
}

// A request never sent passes the gate, but the gate still closes on the
// next target's lost connection.
func TestGateHoldsAfterANodeNotSentTo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := &recorder{}
		ex := newExecutor(t, retry.Config{Policy: pol})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{retry.ErrNotSent}}, {name: "b", errs: []error{retry.ErrConnectionClosed}},
			{name: "c"}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.NotIdempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrNotIdempotent)
		assert.ErrorIs(t, err, retry.ErrConnectionClosed)
		assert.Equal(t, []string{"a", "b"}, targets(cl.log()))
		assert.Equal(t, []asked{{"OnRequestAborted", stmt(c.Quorum, retry.NotIdempotent), 0}}, pol.questions())
	})
}

// A statement that is not idempotent is never executed speculatively, not
// even once a retry has moved it on to a slow target: Speculation with a
// short delay changes nothing.
func TestNoSpeculationForANonIdempotentStatementThatRetries(t *testing.T) {
	for _, idem := range []retry.Idempotence{retry.NotIdempotent, retry.IdempotenceUnset} {
		synctest.Test(t, func(t *testing.T) {
			ex := newExecutor(t, retry.Config{Speculation: retry.FixedDelay(5 * ms), SpeculativeExecutions: 3})
			cl := newCluster()
			plan := []target{{name: "a", delay: 20 * ms, errs: []error{unavailable(c.Quorum, 2, 1)}},
				{name: "b", delay: 100 * ms}, {name: "c"}, {name: "d"}}
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, idem), plan, cl.attempt)
			require.NoError(t, err)
			assert.Equal(t, "b", res.Value)
			assert.Equal(t, []call{{target: "a", level: c.Quorum}, {target: "b", level: c.Quorum, at: 20 * ms}}, cl.log())
			assert.Zero(t, ex.Metrics().SpeculativeAttempts)
			for _, r := range res.Attempts.All() {
				assert.False(t, r.Speculative)
			}
		})
	}
}
