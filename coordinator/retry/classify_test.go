package retry_test

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// refusedError matches ErrNotSent by its Is method, as coordinator.ErrClosed
// does.
type refusedError struct{}

func (refusedError) Error() string        { return "coordinator closed" }
func (refusedError) Is(target error) bool { return target == retry.ErrNotSent }

func readFailure(reasons ...error) *c.ReadFailureError {
	return &c.ReadFailureError{Level: c.Quorum, BlockFor: 2, Received: 1, Failures: len(reasons),
		Reasons: byReplica(reasons)}
}

func writeFailure(reasons ...error) *c.WriteFailureError {
	return &c.WriteFailureError{Level: c.Quorum, WriteType: c.WriteSimple, BlockFor: 2, Received: 1,
		Failures: len(reasons), Reasons: byReplica(reasons)}
}

func byReplica(reasons []error) map[string]error {
	m := map[string]error{}
	for i, r := range reasons {
		m[fmt.Sprintf("10.0.0.%d", i+2)] = r
	}
	return m
}

// A failure's Reasons are the replicas' errors, which errors.Is and
// errors.As reach: none of them may decide how the attempt is classified.
func TestClassifyDoesNotLookIntoReplicaReasons(t *testing.T) {
	disk := errors.New("disk full")
	tests := []struct {
		name string
		err  error
		want retry.Cause
	}{
		{"write failure, a replica not sent", writeFailure(refusedError{}, disk), retry.CauseErrorResponse},
		{"write failure, a replica's wrapped ErrNotSent", writeFailure(fmt.Errorf("x: %w", retry.ErrNotSent)),
			retry.CauseErrorResponse},
		{"read failure, a replica's closed connection", readFailure(retry.ErrConnectionClosed, disk),
			retry.CauseErrorResponse},
		{"read failure, a replica's heartbeat", readFailure(retry.ErrHeartbeatFailed), retry.CauseErrorResponse},
		{"read failure, a replica's abort", readFailure(&retry.RequestAbortedError{}), retry.CauseErrorResponse},
		{"read failure, a replica's read timeout", readFailure(readTimeout(c.One, 1, 0, false)),
			retry.CauseErrorResponse},
		{"write failure, a replica's write timeout", writeFailure(writeTimeout(c.One, c.WriteSimple, 1, 0)),
			retry.CauseErrorResponse},
		{"write failure, a replica's unavailable", writeFailure(unavailable(c.One, 1, 0)), retry.CauseErrorResponse},
		{"wrapped write failure", fmt.Errorf("write users: %w", writeFailure(refusedError{})),
			retry.CauseErrorResponse},
		{"abort of a failure", &retry.RequestAbortedError{Err: readFailure(readTimeout(c.One, 1, 0, false))},
			retry.CauseRequestAborted},
		// The attempt's own chain still counts, through every branch.
		{"joined", errors.Join(disk, refusedError{}), retry.CauseRequestAborted},
		{"Is method", fmt.Errorf("node 1: %w", refusedError{}), retry.CauseRequestAborted},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, retry.Classify(tt.err), tt.name)
	}
}

// Nor may a replica's reason steer a policy: "not sent" and "connection
// lost" say what became of the request, not of one replica.
func TestPoliciesDoNotLookIntoReplicaReasons(t *testing.T) {
	q := stmt(c.Quorum, retry.Idempotent)
	lost := &retry.RequestAbortedError{Err: readFailure(retry.ErrConnectionClosed)}
	unsent := &retry.RequestAbortedError{Err: writeFailure(retry.ErrNotSent)}
	assert.Equal(t, rethrown, retry.DefaultPolicy{}.OnRequestAborted(q, lost, 0))
	assert.Equal(t, rethrown, retry.DefaultPolicy{}.OnRequestAborted(q, unsent, 0))
	assert.Equal(t, rethrown, retry.IdempotentOnlyPolicy{}.OnRequestAborted(q, unsent, 0))
	assert.Equal(t, rethrown, retry.DefaultPolicy{}.OnErrorResponse(q, readFailure(retry.ErrOverloaded), 0))
	assert.Equal(t, next(c.Quorum), retry.IdempotentOnlyPolicy{}.OnRequestAborted(q, refusedError{}, 0))
}

// OnErrorResponse rethrows a read or write failure even when the error
// also says transient and connection lost, which alone would move on: its
// replicas must be repaired first (Java's DefaultRetryPolicy rethrows
// ReadFailureException and WriteFailureException in onErrorResponse).
func TestErrorResponseRethrowsAFailureThatAlsoMoves(t *testing.T) {
	q := stmt(c.Quorum, retry.Idempotent)
	err := fmt.Errorf("%w; %w; %w", retry.ErrServerError, retry.ErrConnectionClosed, readFailure())
	for _, p := range []retry.Policy{retry.DefaultPolicy{}, retry.DowngradingPolicy{}} {
		assert.Equal(t, rethrown, p.OnErrorResponse(q, err, 0), "%T", p)
	}
}

// The trial's repro: a write failure one of whose replicas was not sent to
// may be applied on the others. Not idempotent, it must be rethrown by the
// gate; idempotent, DefaultPolicy rethrows a failure as the Java driver does.
func TestReplicaReasonsDoNotPassTheGate(t *testing.T) {
	tests := []struct {
		err    error
		idem   retry.Idempotence
		reason error
	}{
		{writeFailure(refusedError{}, errors.New("disk full")), retry.NotIdempotent, retry.ErrNotIdempotent},
		{readFailure(retry.ErrConnectionClosed, errors.New("tombstones")), retry.Idempotent, retry.ErrRethrown},
		{writeFailure(retry.ErrNotSent), retry.Idempotent, retry.ErrRethrown},
	}
	for _, tt := range tests {
		synctest.Test(t, func(t *testing.T) {
			ex := newExecutor(t, retry.Config{})
			cl := newCluster()
			plan := []target{{name: "a", errs: []error{tt.err}}, {name: "b"}}
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, tt.idem), plan, cl.attempt)
			require.ErrorIs(t, err, tt.reason, "%T %s", tt.err, tt.idem)
			assert.Equal(t, []string{"a"}, targets(cl.log()))
			assert.Equal(t, retry.CauseErrorResponse, res.Attempts.At(0).Cause)
		})
	}
}

// Asked of an error that joins requests, one a lost connection (so
// Classify says REQUEST_ABORTED), DefaultPolicy gives the strictest of the
// answers each request would get alone: the lost connection moves on, but
// a request that failed on its replicas rethrows even when it also says
// transient (Java's DefaultRetryPolicy rethrows ReadFailureException
// before looking at anything else), so the whole error rethrows.
func TestALostConnectionJoinedToATransientReplicaFailureRethrows(t *testing.T) {
	q := stmt(c.Quorum, retry.Idempotent)
	failed := fmt.Errorf("%w: %w", retry.ErrOverloaded, readFailure())
	err := errors.Join(retry.ErrConnectionClosed, failed)
	require.Equal(t, retry.CauseRequestAborted, retry.Classify(err))
	assert.Equal(t, next(c.Quorum), retry.DefaultPolicy{}.OnRequestAborted(q,
		errors.Join(retry.ErrConnectionClosed, retry.ErrHeartbeatFailed), 0))
	assert.Equal(t, rethrown, retry.DefaultPolicy{}.OnRequestAborted(q, err, 0))
}
