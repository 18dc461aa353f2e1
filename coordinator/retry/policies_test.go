package retry_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

type decisionCase struct {
	name string
	s    retry.Statement
	err  error
	n    int // retryCount
	want retry.Verdict
}

func runDecisions(t *testing.T, p retry.Policy, cases []decisionCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want.String(), ask(p, tc.s, tc.err, tc.n).String())
			assert.Equal(t, tc.want, ask(p, tc.s, tc.err, tc.n))
		})
	}
}

var (
	q      = stmt(c.Quorum, retry.Idempotent)
	serial = stmt(c.Serial, retry.Idempotent)
	each   = stmt(c.EachQuorum, retry.Idempotent)
)

// Callbacks that do not depend on the policy's counts: aborted requests and
// error responses, as the Java driver's default answers them.
func driverErrorCases(n int) []decisionCase {
	return []decisionCase{
		{"closed connection", q, retry.ErrConnectionClosed, n, next(c.Quorum)},
		{"heartbeat", q, &retry.RequestAbortedError{Err: retry.ErrHeartbeatFailed}, n, next(c.Quorum)},
		{"not sent", q, fmt.Errorf("node 2: %w", retry.ErrNotSent), n, next(c.Quorum)},
		{"other abort", q, &retry.RequestAbortedError{Err: errors.New("reset")}, n, rethrown},
		{"overloaded", q, fmt.Errorf("node 3: %w", retry.ErrOverloaded), n, next(c.Quorum)},
		{"server error", q, retry.ErrServerError, n, next(c.Quorum)},
		{"truncate", q, retry.ErrTruncate, n, next(c.Quorum)},
		{"read failure", q, &c.ReadFailureError{Level: c.Quorum, BlockFor: 2, Failures: 2}, n, rethrown},
		{"write failure", q, &c.WriteFailureError{Level: c.Quorum, BlockFor: 2, Failures: 2}, n, rethrown},
		{"unknown error", q, errors.New("syntax error"), n, rethrown},
	}
}

func TestDefaultPolicy(t *testing.T) {
	cases := []decisionCase{
		{"read: enough, no data", q, readTimeout(c.Quorum, 2, 2, false), 0, same(c.Quorum)},
		{"read: enough, no data, 2nd", q, readTimeout(c.Quorum, 2, 2, false), 1, rethrown},
		{"read: too few", q, readTimeout(c.Quorum, 2, 1, false), 0, rethrown},
		{"read: digest mismatch", q, readTimeout(c.Quorum, 2, 2, true), 0, rethrown},
		{"read: serial, enough, no data", serial, readTimeout(c.Serial, 2, 2, false), 0, same(c.Serial)},
		{"unavailable", q, unavailable(c.Quorum, 2, 1), 0, next(c.Quorum)},
		{"unavailable 2nd", q, unavailable(c.Quorum, 2, 1), 1, rethrown},
		{"unavailable serial", serial, unavailable(c.Serial, 2, 0), 0, next(c.Serial)},
		{"unavailable each quorum", each, unavailable(c.EachQuorum, 2, 0), 0, next(c.EachQuorum)},
	}
	cases = append(cases, driverErrorCases(0)...)
	// The driver's default does not count aborts and error responses: the
	// plan bounds them.
	cases = append(cases, driverErrorCases(3)...)
	runDecisions(t, retry.DefaultPolicy{}, cases)
}

func TestDefaultPolicyWriteTypes(t *testing.T) {
	for _, wt := range writeTypes {
		want := rethrown
		if wt == c.WriteBatchLog {
			want = same(c.Quorum)
		}
		err := writeTimeout(c.Quorum, wt, 2, 1)
		assert.Equal(t, want, ask(retry.DefaultPolicy{}, q, err, 0), "%s", wt)
		assert.Equal(t, rethrown, ask(retry.DefaultPolicy{}, q, err, 1), "%s, 2nd", wt)
	}
}

func TestFallthroughPolicy(t *testing.T) {
	errs := []error{readTimeout(c.Quorum, 2, 2, false), unavailable(c.Quorum, 2, 1),
		retry.ErrConnectionClosed, retry.ErrNotSent, retry.ErrOverloaded}
	for _, wt := range writeTypes {
		errs = append(errs, writeTimeout(c.Quorum, wt, 2, 1))
	}
	for _, err := range errs {
		for n := range 2 {
			assert.Equal(t, rethrown, ask(retry.FallthroughPolicy{}, q, err, n), "%v, retry %d", err, n)
		}
	}
}

func TestDowngradingPolicy(t *testing.T) {
	all := stmt(c.All, retry.Idempotent)
	cases := []decisionCase{
		{"read: 1 of 2", q, readTimeout(c.Quorum, 2, 1, false), 0, same(c.One)},
		{"read: 1 of 2, 2nd", q, readTimeout(c.Quorum, 2, 1, false), 1, rethrown},
		{"read: 2 of 5", all, readTimeout(c.All, 5, 2, true), 0, same(c.Two)},
		{"read: 4 of 5", all, readTimeout(c.All, 5, 4, true), 0, same(c.Three)},
		{"read: none", q, readTimeout(c.Quorum, 2, 0, false), 0, rethrown},
		{"read: enough, no data", q, readTimeout(c.Quorum, 2, 2, false), 0, same(c.Quorum)},
		{"read: digest mismatch", q, readTimeout(c.Quorum, 2, 2, true), 0, rethrown},
		{"read: serial", serial, readTimeout(c.Serial, 2, 1, false), 0, rethrown},
		{"read: local serial", serial, readTimeout(c.LocalSerial, 2, 1, false), 0, rethrown},
		// At EACH_QUORUM, as the Java driver: by the count, which is a
		// lower bound, and ONE even for none (JAVA-1005).
		{"read: each quorum, none", each, readTimeout(c.EachQuorum, 4, 0, false), 0, same(c.One)},
		{"read: each quorum, 2", each, readTimeout(c.EachQuorum, 4, 2, false), 0, same(c.Two)},
		{"read: each quorum, 3", each, readTimeout(c.EachQuorum, 4, 3, false), 0, same(c.Three)},
		{"unavailable: 1 alive", q, unavailable(c.Quorum, 2, 1), 0, same(c.One)},
		{"unavailable: 1 alive, 2nd", q, unavailable(c.Quorum, 2, 1), 1, rethrown},
		{"unavailable: 3 alive", all, unavailable(c.All, 5, 3), 0, same(c.Three)},
		{"unavailable: 2 alive", all, unavailable(c.All, 5, 2), 0, same(c.Two)},
		{"unavailable: none", q, unavailable(c.Quorum, 2, 0), 0, rethrown},
		{"unavailable: serial", serial, unavailable(c.Serial, 2, 1), 0, next(c.Serial)},
		{"unavailable: serial, 2nd", serial, unavailable(c.Serial, 2, 1), 1, rethrown},
		{"unavailable: each quorum, none", each, unavailable(c.EachQuorum, 2, 0), 0, same(c.One)},
		{"unavailable: each quorum, 1", each, unavailable(c.EachQuorum, 2, 1), 0, same(c.One)},
		{"unavailable: each quorum, 2", each, unavailable(c.EachQuorum, 3, 2), 0, same(c.Two)},
		{"unavailable: each quorum, 3", each, unavailable(c.EachQuorum, 4, 3), 0, same(c.Three)},
		{"unavailable: each quorum, none, 2nd", each, unavailable(c.EachQuorum, 2, 0), 1, rethrown},
	}
	cases = append(cases, driverErrorCases(0)...)
	// As the Java driver's, aborts and error responses are not counted:
	// the plan and MaxRetries bound them.
	cases = append(cases, driverErrorCases(3)...)
	runDecisions(t, retry.DowngradingPolicy{}, cases)
}

func TestDowngradingPolicyWriteTypes(t *testing.T) {
	tests := []struct {
		wt             c.WriteType
		acked, unacked retry.Verdict // 2 acks of 3, 0 acks
	}{
		{c.WriteSimple, ignored(c.Quorum), rethrown},
		{c.WriteBatch, ignored(c.Quorum), rethrown},
		{c.WriteUnloggedBatch, same(c.Two), rethrown},
		{c.WriteCounter, rethrown, rethrown},
		{c.WriteBatchLog, same(c.Quorum), same(c.Quorum)},
		{c.WriteCAS, rethrown, rethrown},
		{c.WriteView, rethrown, rethrown},
		{c.WriteCDC, rethrown, rethrown},
	}
	is := assert.New(t)
	is.Len(tests, len(writeTypes))
	p := retry.DowngradingPolicy{}
	for _, tt := range tests {
		is.Equal(tt.acked, ask(p, q, writeTimeout(c.Quorum, tt.wt, 3, 2), 0), "%s acked", tt.wt)
		is.Equal(tt.unacked, ask(p, q, writeTimeout(c.Quorum, tt.wt, 3, 0), 0), "%s unacked", tt.wt)
		is.Equal(rethrown, ask(p, q, writeTimeout(c.Quorum, tt.wt, 3, 2), 1), "%s 2nd", tt.wt)
	}
	// EACH_QUORUM counts one datacenter: an unlogged batch none
	// acknowledged goes to ONE, two acknowledgements to TWO.
	is.Equal(same(c.One), ask(p, each, writeTimeout(c.EachQuorum, c.WriteUnloggedBatch, 4, 0), 0))
	is.Equal(same(c.Two), ask(p, each, writeTimeout(c.EachQuorum, c.WriteUnloggedBatch, 4, 2), 0))
}

func TestIdempotentOnlyPolicy(t *testing.T) {
	cases := []decisionCase{
		{"read", q, readTimeout(c.Quorum, 2, 1, false), 0, next(c.Quorum)},
		{"read, 2nd", q, readTimeout(c.Quorum, 2, 1, false), 1, rethrown},
		{"read: serial", serial, readTimeout(c.Serial, 2, 1, false), 0, next(c.Serial)},
		{"read: each quorum", each, readTimeout(c.EachQuorum, 4, 1, false), 0, next(c.EachQuorum)},
		{"unavailable", q, unavailable(c.Quorum, 2, 1), 0, next(c.Quorum)},
		{"unavailable, 2nd", q, unavailable(c.Quorum, 2, 1), 1, rethrown},
		{"closed connection", q, retry.ErrConnectionClosed, 0, rethrown},
		{"not sent", stmt(c.Quorum, retry.NotIdempotent), retry.ErrNotSent, 0, next(c.Quorum)},
		{"not sent, 2nd", q, retry.ErrNotSent, 1, next(c.Quorum)}, // past a node it could not send to
		{"overloaded", q, retry.ErrOverloaded, 0, rethrown},
	}
	runDecisions(t, retry.IdempotentOnlyPolicy{}, cases)
}

func TestIdempotentOnlyPolicyWriteTypes(t *testing.T) {
	p := retry.IdempotentOnlyPolicy{}
	notIdem := stmt(c.Quorum, retry.NotIdempotent)
	unset := stmt(c.Quorum, retry.IdempotenceUnset)
	for _, wt := range writeTypes {
		err := writeTimeout(c.Quorum, wt, 2, 1)
		assert.Equal(t, next(c.Quorum), ask(p, q, err, 0), "%s", wt)
		assert.Equal(t, rethrown, ask(p, q, err, 1), "%s, 2nd", wt)
		assert.Equal(t, rethrown, ask(p, notIdem, err, 0), "%s, not idempotent", wt)
		assert.Equal(t, rethrown, ask(p, unset, err, 0), "%s, unset", wt)
	}
}

// The Java driver 4's DefaultRetryPolicy.onRequestAborted tries the next
// node only for a closed connection or a failed heartbeat, and rethrows any
// other error: so must OnRequestAborted, called by a policy that wraps it,
// with an error that is no abort at all, though OnErrorResponse would move
// it on.
func TestOnRequestAbortedRethrowsAnErrorResponse(t *testing.T) {
	for _, p := range []retry.Policy{retry.DefaultPolicy{}, retry.DowngradingPolicy{}} {
		for _, err := range []error{retry.ErrOverloaded, retry.ErrServerError, retry.ErrTruncate} {
			assert.Equal(t, rethrown, p.OnRequestAborted(q, err, 0), "%T, %v", p, err)
			assert.Equal(t, next(c.Quorum), p.OnErrorResponse(q, err, 0), "%T, %v", p, err)
		}
	}
}
