package coordinator_test

import (
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

// Ports of Cassandra's
// test/unit/org/apache/cassandra/service/reads/ReadExecutorTest.java. The
// Java tests drive an executor by hand; here a replica's fault plays the
// part of the callbacks the tests invoke, and a 5 ms fixed policy that of
// the zero sampled latency that makes Cassandra speculate at once.

var unreachable = replicatest.Behavior{Fault: replicatest.Unreachable()}

func tooManyTombstones() error {
	return &replica.TombstoneOverwhelmingError{Table: tbl, Key: key, Tombstones: 100001, Threshold: 100000}
}

// ReadExecutorTest.testUnableToSpeculate: a speculation that is due but has
// no replica left to go to counts as insufficient replicas, once, and only
// when the table speculates at all (NeverSpeculatingReadExecutor with
// logFailedSpeculation true, then false).
func TestCassandraReadExecutorUnableToSpeculate(t *testing.T) {
	for _, tt := range []struct {
		policy string
		want   int64
	}{{"5ms", 1}, {"NEVER", 0}} {
		t.Run(tt.policy, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, tt.policy)})
				require.NoError(t, e.cluster.SetAlive(C, false)) // A and B are all the live replicas
				e.behave(t, A, unreachable)
				e.behave(t, B, unreachable)

				_, _, err := e.read(consistency.Quorum)
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout)
				m := e.c.Metrics().Total
				assert.Equal(t, tt.want, m.NoCandidate)
				assert.Zero(t, m.SpeculativeRetries)
			})
		})
	}
}

// ReadExecutorTest.testSpeculateSucceeded: the read speculates, then both
// first-round contacts fail: the read fails at once, without waiting for
// the hedge, with one speculative retry counted.
func TestCassandraReadExecutorSpeculateThenFail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms")})
		e.behave(t, A, replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(10), nil)})
		e.behave(t, B, replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(10), nil)})
		e.behave(t, C, unreachable)

		_, took, err := e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, ms(10), took)
		assert.Equal(t, 2, failure.Failures, "%v", err)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.SpeculativeRetries)
		// Cassandra's speculativeFailedRetries stays 0: it counts only reads
		// that time out after speculating. FailedSpeculations counts every
		// hedge whose answer went unused (TableMetrics).
		assert.Equal(t, int64(1), m.FailedSpeculations)
	})
}

// The same with the refusal the Java test uses, too many tombstones: the
// read fails at A's refusal, without waiting for B, as the README says
// (another replica would meet the same tombstones); Cassandra counts it as
// one failure among three contacts and waits.
func TestCassandraReadExecutorSpeculateThenTombstoneRefusal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms")})
		e.behave(t, A, replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(10), tooManyTombstones())})
		e.behave(t, B, replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(20), tooManyTombstones())})
		e.behave(t, C, unreachable)

		_, took, err := e.read(consistency.Quorum)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, ms(10), took)
		assert.ErrorIs(t, err, replica.ErrTombstoneOverwhelming)
		assert.Equal(t, int64(1), e.c.Metrics().Total.SpeculativeRetries)
	})
}

// ReadExecutorTest.testSpeculateFailed: the read speculates and still
// times out: one speculative retry, and it failed.
func TestCassandraReadExecutorSpeculateAndTimeOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms")})
		e.behave(t, A, unreachable)
		e.behave(t, B, unreachable)
		e.behave(t, C, unreachable)

		_, _, err := e.read(consistency.Quorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.SpeculativeRetries)
		assert.Equal(t, int64(1), m.FailedSpeculations)
		assert.Zero(t, m.HedgeWins)
	})
}

// ReadExecutorTest.testRaceWithNonSpeculativeFailure (CASSANDRA-16097): at
// LOCAL_ONE (ONE here, a single datacenter) the read speculates to B, then
// A fails and B never answers. Cassandra throws ReadFailureException once
// the timeout finds a failure and the read short; readpath's timeout is a
// ReadTimeoutError, A's failure in the trace (a difference the README
// lists).
func TestCassandraReadExecutorFailureAfterSpeculation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms")})
		e.behave(t, A, replicatest.Behavior{Fault: replicatest.ErrorAfter(ms(10), nil)})
		e.behave(t, B, unreachable)
		e.behave(t, C, unreachable)

		res, took, err := e.read(consistency.One)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, 5*time.Second, took)
		assert.Equal(t, B, res.Trace.Hedge.To)
		assert.Equal(t, coordinator.Failed, res.Trace.Requests[0].Outcome)
		assert.ErrorIs(t, res.Trace.Requests[0].Err, replicatest.ErrInjected)
	})
}
