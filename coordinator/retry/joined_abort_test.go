package retry_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// An attempt that ran two requests joined their errors: one of them alone
// the drivers' rules rethrow (the Java driver 4's
// DefaultRetryPolicy.onRequestAbortedVerdict moves on only after a closed
// connection or a failed heartbeat, and onErrorResponseVerdict never after
// a read or write failure; readpath rethrows an error it does not know), the
// other alone goes on to the next target. Each request's verdict holds, so
// the strictest: a request not sent or a lost connection, or an overloaded
// coordinator, joined to an abort of another kind, a read failure or an
// unknown error, no longer moves the statement on.
func TestJoinedAbortsAreJudgedByTheStrictest(t *testing.T) {
	other := func() error { return &retry.RequestAbortedError{Err: errors.New("driver: stream ids exhausted")} }
	failure := func() error { return &c.ReadFailureError{Level: c.Quorum, BlockFor: 2, Failures: 1} }
	s := stmt(c.Quorum, retry.Idempotent)
	ladder := mustLadder(t, c.One)
	tests := []struct {
		name string
		err  error
		want retry.Verdict
	}{
		{"an abort and a request not sent", errors.Join(other(), retry.ErrNotSent), rethrown},
		{"an abort and a lost connection", errors.Join(other(), retry.ErrConnectionClosed), rethrown},
		{"a read failure and a request not sent", errors.Join(failure(), retry.ErrNotSent), rethrown},
		{"an unknown error and a heartbeat", errors.Join(errors.New("x"), retry.ErrHeartbeatFailed), rethrown},
		{"an unknown error and an overload", errors.Join(errors.New("x"), retry.ErrOverloaded), rethrown},
		{"a lost connection and a request not sent", errors.Join(retry.ErrConnectionClosed, retry.ErrNotSent),
			next(c.Quorum)},
		{"an overload and a request not sent", errors.Join(retry.ErrOverloaded, retry.ErrNotSent), next(c.Quorum)},
		{"an overload and a server error", errors.Join(retry.ErrOverloaded, retry.ErrServerError), next(c.Quorum)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ask(retry.DefaultPolicy{}, s, tt.err, 0), "DefaultPolicy")
			assert.Equal(t, tt.want, ask(retry.DowngradingPolicy{}, s, tt.err, 0), "DowngradingPolicy")
			assert.Equal(t, tt.want, ask(ladder, s, tt.err, 0), "LadderPolicy")
		})
	}
}
