package retry_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// An Ignore verdict leaves a write on fewer replicas than the statement
// asked for: a weakening as real as a downgraded retry, reported the same
// ways, to OnDowngrade and by Result.Level and Downgraded.
func TestIgnoreIsReportedAsADowngrade(t *testing.T) {
	ignoreAll := &recorder{answer: func(s retry.Statement) retry.Verdict { return ignored(s.Level) }}
	tests := []struct {
		name   string
		policy retry.Policy
		level  c.Level
		err    error
		want   c.Level
	}{
		{"1 of 2", retry.DowngradingPolicy{}, c.Quorum, writeTimeout(c.Quorum, c.WriteSimple, 2, 1), c.One},
		{"2 of 3", retry.DowngradingPolicy{}, c.All, writeTimeout(c.All, c.WriteBatch, 3, 2), c.Two},
		{"4 of 5", retry.DowngradingPolicy{}, c.All, writeTimeout(c.All, c.WriteSimple, 5, 4), c.Three},
		{"ladder", mustLadder(t, c.One), c.Quorum, writeTimeout(c.Quorum, c.WriteSimple, 2, 1), c.One},
		{"none acknowledged", ignoreAll, c.Quorum, writeTimeout(c.Quorum, c.WriteSimple, 2, 0), c.Any},
		{"a read", ignoreAll, c.Quorum, readTimeout(c.Quorum, 2, 1, true), c.Any},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			var seen []retry.Downgrade
			ex := newExecutor(t, retry.Config{Policy: tt.policy,
				OnDowngrade: func(d retry.Downgrade) { seen = append(seen, d) }})
			cl := newCluster()
			plan := []target{{name: "a", errs: []error{tt.err}}, {name: "b"}}
			res, err := retry.Execute(t.Context(), ex, stmt(tt.level, retry.Idempotent), plan, cl.attempt)
			require.NoError(t, err, tt.name)
			assert.True(t, res.Ignored, tt.name)
			assert.Equal(t, tt.want, res.Level, tt.name)
			assert.True(t, res.Downgraded(), tt.name)
			assert.Equal(t, []retry.Downgrade{{Requested: tt.level, From: tt.level, To: tt.want,
				Cause: retry.Classify(tt.err), Ignored: true}}, seen, tt.name)
			assert.Zero(t, ex.Metrics().Downgrades, "%s: no attempt ran downgraded", tt.name)
			assert.Equal(t, uint64(1), ex.Metrics().Ignores)
		})
	}
}

// A write timeout with as many acknowledgements as it needed, ignored,
// left the statement at its level: nothing to report.
func TestIgnoreWithEnoughAcknowledgementsIsNoDowngrade(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var seen []retry.Downgrade
		ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{},
			OnDowngrade: func(d retry.Downgrade) { seen = append(seen, d) }})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{writeTimeout(c.One, c.WriteSimple, 1, 1)}}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.True(t, res.Ignored)
		assert.False(t, res.Downgraded())
		assert.Empty(t, seen)
	})
}

func mustLadder(t *testing.T, levels ...c.Level) retry.LadderPolicy {
	t.Helper()
	p, err := retry.NewLadderPolicy(levels...)
	require.NoError(t, err)
	return p
}
