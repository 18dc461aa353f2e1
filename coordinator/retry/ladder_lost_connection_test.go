package retry_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// A lost connection says nothing of the replicas, so the ladder retries it
// on the next target at the same level, as the Java driver 4's
// ConsistencyDowngradingRetryPolicy.onRequestAbortedVerdict (RETRY_NEXT, no
// new level); gocql's DowngradingConsistencyRetryPolicy.Attempt would move
// down a rung. The retry takes its rung all the same, as both drivers count
// it (Java's policy then allows no other retry; gocql's next attempt runs at
// the rung after): node2's unavailable error, on retry 1, steps to the
// ladder's rung 1, ONE, and rung 0, TWO, is never tried. A one-rung ladder
// then rethrows, as the Java driver does.
func TestLadderLostConnectionTakesARung(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ladder, err := retry.NewLadderPolicy(c.Two, c.One)
		require.NoError(t, err)
		ex := newExecutor(t, retry.Config{Policy: ladder})
		cl := newCluster()
		plan := []target{
			{name: "node1", errs: []error{retry.ErrConnectionClosed}},
			{name: "node2", errs: []error{unavailable(c.Quorum, 3, 2)}},
		}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, c.One, res.Level)
		assert.Equal(t, []c.Level{c.Quorum, c.Quorum, c.One}, levels(cl.log()))

		short, err := retry.NewLadderPolicy(c.One)
		require.NoError(t, err)
		ex = newExecutor(t, retry.Config{Policy: short})
		cl = newCluster()
		_, err = retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrRethrown)
		assert.Equal(t, []c.Level{c.Quorum, c.Quorum}, levels(cl.log()))
	})
}
