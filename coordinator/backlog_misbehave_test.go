package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// abandonedCounts is every replica's Abandoned count, none negative.
func abandonedCounts(t *testing.T, c *coordinator.Coordinator) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, r := range c.Metrics().Replicas {
		require.GreaterOrEqual(t, r.Abandoned, int64(0), r.Endpoint.ID)
		out[r.Endpoint.ID] = r.Abandoned
	}
	return out
}

// Three of five replicas hang at once, ignoring their context: each read
// at ALL times out at its deadline with a typed error and leaves one
// request to each; at the cap they are refused unsent, and a read then
// fails at once naming each with a *BacklogError; when they return the
// counts go back to 0 and they are asked again.
func TestManyHungReplicasCappedAndReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnvOn(t, fiveNodes(t), coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 2,
			DefaultTable: policy(t, "NEVER")})
		for _, id := range []string{A, C, E} {
			e.hangs(t, id)
		}
		for i := range 2 {
			_, took, err := e.read(consistency.All)
			var timeout *consistency.ReadTimeoutError
			require.ErrorAs(t, err, &timeout)
			assert.Equal(t, ms(10), took)
			settle()
			ab := abandonedCounts(t, e.c)
			for _, id := range []string{A, C, E} {
				assert.Equal(t, int64(i+1), ab[id], id)
			}
			assert.Zero(t, ab[B])
			assert.Zero(t, ab[D])
		}

		res, took, err := e.read(consistency.All)
		assert.Zero(t, took, "nothing is waited for")
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		for _, id := range []string{A, C, E} {
			var b *coordinator.BacklogError
			require.ErrorAs(t, failure.Reasons[id], &b, id)
			assert.Equal(t, int64(2), b.Abandoned)
		}
		assert.Equal(t, 3, refusedIn(res.Trace))
		settle()
		for _, id := range []string{A, C, E} {
			assert.Equal(t, int64(2), e.stats(id).Reads, "%s: the refused request was not sent", id)
		}

		for _, id := range []string{A, C, E} {
			e.behave(t, id, constant(ms(1)))
		}
		drain()
		for id, n := range abandonedCounts(t, e.c) {
			assert.Zero(t, n, id)
		}
		_, took, err = e.read(consistency.All)
		require.NoError(t, err)
		assert.Equal(t, ms(1), took)
	})
}

// Close while requests are abandoned to a hung replica returns at once;
// reads after it fail with ErrClosed, sending nothing; the abandoned
// requests end when the replica returns, the counts go back to 0, and no
// goroutine is left (the bubble ends only when all of its goroutines have
// exited: the kept workers included).
func TestCloseWhileAbandoned(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 5, DefaultTable: policy(t, "NEVER")})
		e.hangs(t, A)
		e.timeOut(t, 3, consistency.All)
		assert.Equal(t, int64(3), e.abandoned(t, A))

		start := time.Now()
		require.NoError(t, e.c.Close())
		assert.Zero(t, time.Since(start), "Close does not wait for the hung requests")
		reads := e.totalReads()
		_, _, err := e.read(consistency.All)
		require.ErrorIs(t, err, coordinator.ErrClosed)
		settle()
		assert.Equal(t, reads, e.totalReads(), "nothing sent after Close")
		assert.Equal(t, int64(3), e.abandoned(t, A), "still running")

		drain()
		assert.Zero(t, e.abandoned(t, A))
		assert.Equal(t, int64(3), e.stats(A).LateAnswers)
		require.NoError(t, e.c.Close(), "a second Close")
	})
}

// Reads running while Close is called finish with their own outcome, and
// their workers, started after the pool closed or parked before, all exit.
func TestCloseDuringReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), DefaultTable: policy(t, "2ms")})
		e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(30)), Fault: replicatest.IgnoresContext()})
		e.behave(t, B, constant(ms(3)))
		errs := make(chan error, 8)
		for range 8 {
			go func() {
				_, _, err := e.read(consistency.Quorum)
				errs <- err
			}()
		}
		time.Sleep(ms(1))
		require.NoError(t, e.c.Close())
		for range 8 {
			err := <-errs
			if err != nil {
				var timeout *consistency.ReadTimeoutError
				assert.True(t, errors.As(err, &timeout) || errors.Is(err, coordinator.ErrClosed), "%v", err)
			}
		}
		time.Sleep(ms(40))
		settle()
		assert.Zero(t, e.abandoned(t, A))
	})
}

// A replica that panics on every request is that replica's failure: a
// read at ALL fails at once with a typed error naming it, nothing crashes,
// and nothing is left abandoned.
func TestReplicaPanicsOnEveryRequestAtAll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), DefaultTable: policy(t, "NEVER")})
		require.NoError(t, e.replica(B).SetFault(replicatest.Panics()))
		for range 5 {
			_, took, err := e.read(consistency.All)
			var failure *consistency.ReadFailureError
			require.ErrorAs(t, err, &failure)
			var p *coordinator.PanicError
			require.ErrorAs(t, failure.Reasons[B], &p)
			assert.LessOrEqual(t, took, ms(10))
		}
		settle()
		for id, n := range abandonedCounts(t, e.c) {
			assert.Zero(t, n, id)
		}
		_, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.NoError(t, err, "A and C still answer")
	})
}
