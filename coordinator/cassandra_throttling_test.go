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
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Ports of Cassandra's ReadExecutorThrottlingTest (apache/cassandra, trunk,
// test/unit/org/apache/cassandra/service/reads/ReadExecutorThrottlingTest.java):
// a QUORUM read (its LOCAL_QUORUM, in one datacenter) contacts A and B of
// A, B, C; TRAFFIC_THROTTLED is replica.ErrOverloaded, UNKNOWN any other
// error. Cassandra hedges at once after a throttled failure only; readpath
// hedges at once after any failure that leaves the read short (the
// README's "A failure hedges at once"), so onlyOneReplicaRespondsWith-
// UnknownError and oneReplicaSomeOtherError succeed here where Cassandra
// fails them. With NEVER, as Cassandra without speculation, a failure that
// leaves the read short fails it at once.

var errUnknown = errors.New("UNKNOWN")

// throttled runs a QUORUM read with A, B and C failing with errs (nil:
// answers) after 1 ms, under policy s, and returns the result, its time
// and its error.
func throttled(t *testing.T, s string, errs map[string]error) (coordinator.Result, time.Duration, error) {
	t.Helper()
	e := newEnv(t, coordinator.Config{DefaultTable: policy(t, s)})
	for id, err := range errs {
		require.NoError(t, e.replica(id).SetFault(replicatest.ErrorAfter(ms(1), err)))
	}
	res, took, err := e.read(consistency.Quorum)
	settle()
	return res, took, err
}

// requireFailure checks err is a ReadFailureError of failures failures,
// or fewer but one: failures arriving at the instant the first made the
// read impossible may or may not be counted, as in Cassandra, whose
// awaiting thread counts those arrived when it wakes.
func requireFailure(t *testing.T, err error, failures int, reasons ...error) {
	t.Helper()
	var rf *consistency.ReadFailureError
	require.ErrorAs(t, err, &rf)
	assert.GreaterOrEqual(t, rf.Failures, 1)
	assert.LessOrEqual(t, rf.Failures, failures)
	for _, r := range reasons {
		assert.ErrorIs(t, err, r)
	}
}

func TestThrottlingSpeculativeRetry(t *testing.T) {
	tests := []struct {
		name     string
		policy   string
		errs     map[string]error
		failures int     // 0: the read succeeds
		reasons  []error // the failure's reasons
		hedge    bool    // whether it hedges
	}{
		{"oneReplicaThrottlingDoSpeculativeRetry", "99p", map[string]error{A: replica.ErrOverloaded}, 0, nil, true},
		{"oneReplicaThrottlingNoSpeculativeRetry", "NEVER", map[string]error{A: replica.ErrOverloaded}, 1, []error{replica.ErrOverloaded}, false},
		{"twoReplicasThrottlingDoSpeculativeRetry", "99p", map[string]error{A: replica.ErrOverloaded, C: replica.ErrOverloaded}, 2, []error{replica.ErrOverloaded}, true},
		{"twoReplicasSomeOtherErrorDoSpeculativeRetry", "99p", map[string]error{A: replica.ErrOverloaded, B: errUnknown, C: errUnknown}, 2, []error{replica.ErrOverloaded, errUnknown}, true},
		{"twoReplicasThrottlingNoSpeculativeRetry", "NEVER", map[string]error{A: replica.ErrOverloaded, B: replica.ErrOverloaded}, 2, []error{replica.ErrOverloaded}, false},
		{"oneReplicaTimeOutNoSpeculativeRetry (a failure)", "NEVER", map[string]error{A: errUnknown}, 1, []error{errUnknown}, false},
		{"oneReplicaSomeOtherErrorNoSpeculativeRetry (readpath hedges)", "99p", map[string]error{A: errUnknown}, 0, nil, true},
		{"noThrottlingNoSpeculativeRetry", "NEVER", nil, 0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				res, took, err := throttled(t, tt.policy, tt.errs)
				assert.Equal(t, tt.hedge, res.Trace.Hedge.Fired, "hedged")
				assert.LessOrEqual(t, took, ms(2), "no wait for a threshold or the timeout")
				if tt.failures == 0 {
					require.NoError(t, err)
					assert.False(t, res.Trace.DigestMismatch)
					assert.NotEmpty(t, res.Visible().Rows)
					return
				}
				requireFailure(t, err, tt.failures, tt.reasons...)
			})
		})
	}
}
