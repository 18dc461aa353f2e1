package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A panicking replica is that replica's failure; the read goes on.
func TestPanickingReplicaIsAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The static order, so that both reads ask A although it panicked.
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "4ms"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, e.replica(A).SetFault(replicatest.Panics()))

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(1), took, "the panic hedges at once to C")
		var p *coordinator.PanicError
		require.ErrorAs(t, res.Trace.Requests[0].Err, &p)
		assert.Equal(t, A, p.Endpoint.ID)
		assert.ErrorIs(t, p, replicatest.ErrInjectedPanic, "what the replica panicked with")

		e.c.SetTableOptions(tbl, policy(t, "NEVER"))
		_, _, err = e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		require.ErrorAs(t, failure.Reasons[A], &p)
	})
}

// A replica that ignores its context answers late; the read has long
// returned, and the replica's goroutine ends when it answers.
func TestReplicaIgnoringItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "4ms")})
		require.NoError(t, e.replica(A).SetBehavior(replicatest.Behavior{
			Latency: replicatest.Constant(ms(60)), Fault: replicatest.IgnoresContext()}))

		_, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(5), took)
		time.Sleep(ms(100))
		assert.Equal(t, int64(1), e.stats(A).LateAnswers)
	})
}

// A late answer after the timeout changes nothing.
func TestAnswerAfterTheTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), DefaultTable: policy(t, "NEVER")})
		require.NoError(t, e.replica(B).SetBehavior(replicatest.Behavior{
			Latency: replicatest.Constant(ms(30)), Fault: replicatest.IgnoresContext()}))

		_, took, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, ms(10), took)
		assert.True(t, timeout.DataPresent)
		time.Sleep(ms(30)) // B's goroutine ends when B answers, late
		assert.Equal(t, int64(1), e.stats(B).LateAnswers)
	})
}

// wrongKey answers data reads with a partition of another key.
type wrongKey struct{ replica.Replica }

func (w wrongKey) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := w.Replica.Read(ctx, cmd)
	resp.Partition.Key = "someone else's"
	return resp, err
}

// A replica answering with the wrong partition is a failed replica: its
// data is never returned.
func TestReplicaAnsweringTheWrongKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return wrongKey{r} })
		c, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "4ms")})
		require.NoError(t, err)
		defer c.Close()

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.NoError(t, err)
		assert.Equal(t, key, res.Partition.Key)
		assert.ErrorIs(t, res.Trace.Requests[0].Err, coordinator.ErrWrongKey)
	})
}
