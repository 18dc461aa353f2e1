package coordinator_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
)

// A closed coordinator refuses a read before sending anything, as a driver
// finds no open connection to a node: a retry executor moves on to the
// next coordinator of the plan, whatever the statement's idempotence.
func TestRetryMovesPastAClosedCoordinator(t *testing.T) {
	read := func(ctx context.Context, co *coordinator.Coordinator, l consistency.Level) (coordinator.Result, error) {
		return co.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: l})
	}
	cl := instantCluster(t)
	closed, open := newEnvOn(t, cl, coordinator.Config{}).c, newEnvOn(t, cl, coordinator.Config{}).c
	require.NoError(t, closed.Close())
	_, err := read(context.Background(), closed, consistency.One)
	require.Equal(t, coordinator.ErrClosed, err, "still comparable with ==")
	assert.ErrorIs(t, err, retry.ErrNotSent)
	assert.NotErrorIs(t, err, retry.ErrConnectionClosed, "a closed connection may have run the request")
	ex, err := retry.NewExecutor(retry.Config{})
	require.NoError(t, err)
	for _, idem := range []retry.Idempotence{retry.Idempotent, retry.NotIdempotent, retry.IdempotenceUnset} {
		s := retry.Statement{Level: consistency.Quorum, Idempotent: idem}
		res, err := retry.Execute(context.Background(), ex, s, []*coordinator.Coordinator{closed, open}, read)
		require.NoError(t, err, "%s", idem)
		require.Equal(t, 2, res.Attempts.Len(), "%s", idem)
		first := res.Attempts.At(0)
		assert.ErrorIs(t, first.Err, coordinator.ErrClosed)
		assert.Equal(t, retry.CauseRequestAborted, first.Cause)
		assert.Equal(t, 1, res.Attempts.At(1).Target)
	}
}
