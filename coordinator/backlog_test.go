package coordinator_test

import (
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

// hangs makes id ignore its context and answer only after an hour: every
// read that asks it and gives up leaves it a request. The test's bubble
// must outlive them (see drain).
func (e *env) hangs(t *testing.T, id string) {
	e.behave(t, id, replicatest.Behavior{Latency: replicatest.Constant(time.Hour), Fault: replicatest.IgnoresContext()})
}

// refusedIn counts the requests of tr refused unsent for their replica's
// backlog.
func refusedIn(tr coordinator.Trace) int {
	n := 0
	for _, rq := range tr.Requests {
		var b *coordinator.BacklogError
		if errors.As(rq.Err, &b) {
			n++
		}
	}
	return n
}

// drain lets a hung replica's requests return: a bubble whose test ends
// while they wait is deadlocked.
func drain() {
	time.Sleep(time.Hour)
	settle()
}

// abandoned is the coordinator's count of id's abandoned requests.
func (e *env) abandoned(t *testing.T, id string) int64 {
	t.Helper()
	for _, r := range e.c.Metrics().Replicas {
		if r.Endpoint.ID == id {
			return r.Abandoned
		}
	}
	t.Fatalf("no metrics for %s", id)
	return 0
}

// timeOut runs n reads at level, each of which must time out.
func (e *env) timeOut(t *testing.T, n int, level consistency.Level) {
	t.Helper()
	for range n {
		_, _, err := e.read(level)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
	}
	settle()
}

// A replica that ignores its context is sent nothing once it holds the
// cap of abandoned requests: a read at ALL fails at once, naming it,
// instead of starting another goroutine that waits for it; once its
// requests return it is asked again.
func TestBackloggedReplicaIsNotSentMore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 3, DefaultTable: policy(t, "NEVER")})
		e.hangs(t, A)
		e.timeOut(t, 3, consistency.All)
		assert.Equal(t, int64(3), e.abandoned(t, A))

		_, took, err := e.read(consistency.All)
		assert.Zero(t, took, "nothing is waited for")
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		var backlog *coordinator.BacklogError
		require.ErrorAs(t, failure.Reasons[A], &backlog)
		assert.Equal(t, coordinator.BacklogError{Endpoint: e.replica(A).Endpoint(), Abandoned: 3}, *backlog)
		settle()
		assert.Equal(t, int64(3), e.stats(A).Reads, "the refused request was not sent")

		e.behave(t, A, constant(ms(1)))
		drain()
		assert.Zero(t, e.abandoned(t, A))
		_, took, err = e.read(consistency.All)
		require.NoError(t, err)
		assert.Equal(t, ms(1), took)
	})
}

// A read that planned to ask a backlogged replica hedges at once to
// another, as after any failure, and its trace shows the refusal.
func TestBacklogHedgesAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: 2,
			DefaultTable: policy(t, "4ms"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		e.hangs(t, A)
		e.timeOut(t, 2, consistency.All)

		res, took, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.Equal(t, ms(1), took, "C is asked at once, not after the 4 ms threshold")
		rt := res.Trace.Requests[0]
		assert.Equal(t, A, rt.Endpoint)
		assert.Equal(t, coordinator.Failed, rt.Outcome)
		var backlog *coordinator.BacklogError
		assert.ErrorAs(t, rt.Err, &backlog)
		drain()
	})
}

// The cap is 1024 by default, and a negative one is none.
func TestBacklogDefaultAndNone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), DefaultTable: policy(t, "NEVER")})
		e.hangs(t, A)
		e.timeOut(t, 1024, consistency.All)
		_, _, err := e.read(consistency.All)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		drain()

		e = newEnv(t, coordinator.Config{ReadTimeout: ms(10), MaxAbandonedPerReplica: -1, DefaultTable: policy(t, "NEVER")})
		e.hangs(t, A)
		e.timeOut(t, 1025, consistency.All)
		assert.Equal(t, int64(1025), e.stats(A).Reads)
		drain()
	})
}
