package retry_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Policy's doc: retries after a request not sent (ErrNotSent) "consume none
// of a policy's allowance", as the Java driver (CqlRequestHandler.sendRequest)
// and gocql (queryExecutor.do skips a host with no connection without
// calling RetryPolicy.Attempt) move past a node they could not send to. A
// ladder's last rung is its allowance: node1 is unavailable at QUORUM, the
// ladder's one rung retries there at ONE, and node1, whose pool has closed
// meanwhile, refuses the retry before sending it. node2 should serve it at
// ONE; the ladder rethrew node1's ErrNotSent, as the retry count it is told
// is 1, past its one rung.
func TestLadderGoesPastANodeNotSentToAfterItsLastRung(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ladder, err := retry.NewLadderPolicy(c.One)
		require.NoError(t, err)
		ex := newExecutor(t, retry.Config{Policy: ladder})
		cl := newCluster()
		plan := []target{
			{name: "node1", errs: []error{unavailable(c.Quorum, 2, 1), errBootstrapping}},
			{name: "node2"},
		}
		res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.NotIdempotent), plan, cl.attempt)
		require.NoError(t, err, "the retry at ONE should go past node1, which sent nothing")
		assert.Equal(t, "node2", res.Value)
		assert.Equal(t, c.One, res.Level)
		assert.Equal(t, []c.Level{c.Quorum, c.One, c.One}, levels(cl.log()))
	})
}

// The policy alone: past its last rung a ladder still moves past a target
// it could not send to, at the failed attempt's level; a lost connection
// (sent, perhaps applied) is still rethrown there, and an invalid ladder
// rethrows everything.
func TestLadderNotSentPastTheLastRung(t *testing.T) {
	ladder, err := retry.NewLadderPolicy(c.One)
	require.NoError(t, err)
	one := stmt(c.One, retry.Idempotent)
	assert.Equal(t, next(c.One), ask(ladder, one, errBootstrapping, 1))
	assert.Equal(t, next(c.One), ask(ladder, one, retry.ErrNotSent, 5))
	assert.Equal(t, rethrown, ask(ladder, one, retry.ErrConnectionClosed, 1))
	assert.Equal(t, rethrown, ask(retry.LadderPolicy{}, one, retry.ErrNotSent, 0))
}
