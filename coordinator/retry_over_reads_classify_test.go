package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Replicas that refuse as overloaded, or refuse unsent, make the read a
// ReadFailureError listing their errors. It is classified by its own chain:
// an error response, not a transient one (DefaultPolicy rethrows it, not
// RetryNext), and not a request never sent (a not-idempotent statement is
// gated), although errors.Is finds the replicas' sentinels through it.
func TestRetryOverReadsReadFailureIsJudgedByItsOwnChain(t *testing.T) {
	for _, rerr := range []error{retry.ErrOverloaded, replica.ErrOverloaded, retry.ErrNotSent} {
		for _, idem := range []retry.Idempotence{retry.Idempotent, retry.IdempotenceUnset} {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				require.NoError(t, e.replica(A).SetFault(replicatest.ErrorAfter(0, rerr)))
				require.NoError(t, e.replica(B).SetFault(replicatest.ErrorAfter(0, rerr)))
				other := newEnvOn(t, e.cluster, coordinator.Config{}).c
				ex, err := retry.NewExecutor(retry.Config{})
				require.NoError(t, err)
				s := retry.Statement{Level: consistency.Quorum, Idempotent: idem}
				res, err := retry.Execute(context.Background(), ex, s, []*coordinator.Coordinator{e.c, other}, riRead)
				var rf *consistency.ReadFailureError
				require.ErrorAs(t, err, &rf, "%v", rerr)
				assert.ErrorIs(t, err, rerr)
				var xe *retry.ExecutionError
				require.ErrorAs(t, err, &xe)
				want := retry.ErrRethrown
				if idem != retry.Idempotent {
					want = retry.ErrNotIdempotent
				}
				assert.ErrorIs(t, xe.Reason, want, "%v %v", rerr, idem)
				assert.Equal(t, 1, res.Attempts.Len())
				assert.Equal(t, retry.CauseErrorResponse, res.Attempts.At(0).Cause)
			})
		}
	}
}

// A closed coordinator refuses ReadMany unsent too: the executor moves on
// to the next coordinator whatever the statement, and the policy's retry
// count does not grow (the next coordinator's unavailable error is still
// retried by DefaultPolicy).
func TestRetryOverReadsClosedReadManyIsNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		closed := newEnvOn(t, e.cluster, coordinator.Config{}).c
		require.NoError(t, closed.Close())
		many := func(ctx context.Context, c *coordinator.Coordinator, l consistency.Level) ([]coordinator.KeyResult, error) {
			return c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: []string{key}, Level: l})
		}
		ex, err := retry.NewExecutor(retry.Config{})
		require.NoError(t, err)
		s := retry.Statement{Level: consistency.Quorum, Idempotent: retry.NotIdempotent}
		res, err := retry.Execute(context.Background(), ex, s, []*coordinator.Coordinator{closed, e.c}, many)
		require.NoError(t, err)
		require.Len(t, res.Value, 1)
		require.NoError(t, res.Value[0].Err)
		assert.ErrorIs(t, res.Attempts.At(0).Err, retry.ErrNotSent)
		assert.Equal(t, retry.CauseRequestAborted, res.Attempts.At(0).Cause)
	})
}

// After a closed coordinator, the next one's unavailable error is still
// the policy's first (the Java driver does not count a node it could not
// send to): DefaultPolicy retries it on the third coordinator.
func TestRetryOverReadsClosedCoordinatorDoesNotSpendThePolicysRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		closed := newEnvOn(t, e.cluster, coordinator.Config{}).c
		require.NoError(t, closed.Close())
		dead := riOnlyAlive(A)
		blind, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: dead})
		require.NoError(t, err)
		t.Cleanup(func() { blind.Close() })
		ex, err := retry.NewExecutor(retry.Config{})
		require.NoError(t, err)
		res, err := retry.Execute(context.Background(), ex, retry.Statement{Level: consistency.Quorum},
			[]*coordinator.Coordinator{closed, blind, e.c}, riRead)
		require.NoError(t, err)
		require.Equal(t, 3, res.Attempts.Len())
		assert.Equal(t, retry.CauseUnavailable, res.Attempts.At(1).Cause)
		assert.Equal(t, 2, res.Attempts.At(2).Target)
	})
}

// riOnlyAlive is a liveness view in which only id is up.
type riOnlyAlive string

func (l riOnlyAlive) IsAlive(ep replica.Endpoint) bool { return ep.ID == string(l) }
