package retry_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// The models below restate, independently of the package, the verdicts of
// apache/cassandra-java-driver
// core/src/main/java/com/datastax/oss/driver/internal/core/retry/DefaultRetryPolicy.java
// and ConsistencyDowngradingRetryPolicy.java (onReadTimeoutVerdict,
// onWriteTimeoutVerdict, onUnavailableVerdict, maybeDowngrade), with the
// statement's level for RETRY_SAME / RETRY_NEXT unless the verdict is a
// ConsistencyDowngradingRetryVerdict. The grids are every level and every
// count up to 5, so that a verdict that differs anywhere is caught.

var everyLevel = []c.Level{c.Any, c.One, c.Two, c.Three, c.Quorum, c.All, c.LocalQuorum, c.EachQuorum,
	c.Serial, c.LocalSerial, c.LocalOne}

// javaMaybeDowngrade is ConsistencyDowngradingRetryPolicy.maybeDowngrade.
func javaMaybeDowngrade(alive int, current c.Level) retry.Verdict {
	switch {
	case alive >= 3:
		return same(c.Three)
	case alive == 2:
		return same(c.Two)
	case alive == 1 || current == c.EachQuorum:
		return same(c.One)
	}
	return rethrown
}

func javaDefaultRead(l c.Level, blockFor, received int, data bool, n int) retry.Verdict {
	if n == 0 && received >= blockFor && !data {
		return same(l)
	}
	return rethrown
}

func javaDowngradingRead(l c.Level, blockFor, received int, data bool, n int) retry.Verdict {
	switch {
	case n != 0, l.IsSerial():
		return rethrown
	case received < blockFor:
		return javaMaybeDowngrade(received, l)
	case !data:
		return same(l)
	}
	return rethrown
}

func javaDowngradingWrite(l c.Level, wt c.WriteType, received, n int) retry.Verdict {
	switch {
	case n != 0:
		return rethrown
	case wt == c.WriteSimple || wt == c.WriteBatch:
		if received > 0 {
			return ignored(l)
		}
		return rethrown
	case wt == c.WriteUnloggedBatch:
		return javaMaybeDowngrade(received, l)
	case wt == c.WriteBatchLog:
		return same(l)
	}
	return rethrown
}

func javaDowngradingUnavailable(l c.Level, alive, n int) retry.Verdict {
	switch {
	case n != 0:
		return rethrown
	case l.IsSerial():
		return next(l)
	}
	return javaMaybeDowngrade(alive, l)
}

// normalize drops the level of a Rethrow, which no one reads.
func normalize(v retry.Verdict) retry.Verdict {
	if v.Decision == retry.Rethrow {
		return rethrown
	}
	return v
}

func TestDefaultPolicyMatchesJavaOnEveryCount(t *testing.T) {
	p := retry.DefaultPolicy{}
	for _, l := range everyLevel {
		s := stmt(l, retry.Idempotent)
		for blockFor := 1; blockFor <= 5; blockFor++ {
			for received := 0; received <= 5; received++ {
				for _, data := range []bool{false, true} {
					for n := range 3 {
						want := javaDefaultRead(l, blockFor, received, data, n)
						got := p.OnReadTimeout(s, readTimeout(l, blockFor, received, data), n)
						assert.Equal(t, want, normalize(got), "read %s %d/%d data=%v retry %d", l, received, blockFor, data, n)
					}
				}
				for _, wt := range writeTypes {
					for n := range 3 {
						want := rethrown
						if n == 0 && wt == c.WriteBatchLog {
							want = same(l)
						}
						got := p.OnWriteTimeout(s, writeTimeout(l, wt, blockFor, received), n)
						assert.Equal(t, want, normalize(got), "write %s %s %d/%d retry %d", wt, l, received, blockFor, n)
					}
				}
				for n := range 3 {
					want := rethrown
					if n == 0 {
						want = next(l)
					}
					got := p.OnUnavailable(s, unavailable(l, blockFor, received), n)
					assert.Equal(t, want, normalize(got), "unavailable %s %d/%d retry %d", l, received, blockFor, n)
				}
			}
		}
	}
}

func TestDowngradingPolicyMatchesJavaOnEveryCount(t *testing.T) {
	p := retry.DowngradingPolicy{}
	for _, l := range everyLevel {
		s := stmt(l, retry.Idempotent)
		for blockFor := 1; blockFor <= 5; blockFor++ {
			for received := 0; received <= 5; received++ {
				for n := range 3 {
					for _, data := range []bool{false, true} {
						want := javaDowngradingRead(l, blockFor, received, data, n)
						got := p.OnReadTimeout(s, readTimeout(l, blockFor, received, data), n)
						assert.Equal(t, want, normalize(got), "read %s %d/%d data=%v retry %d", l, received, blockFor, data, n)
					}
					for _, wt := range writeTypes {
						want := javaDowngradingWrite(l, wt, received, n)
						got := p.OnWriteTimeout(s, writeTimeout(l, wt, blockFor, received), n)
						assert.Equal(t, want, normalize(got), "write %s %s %d/%d retry %d", wt, l, received, blockFor, n)
					}
					want := javaDowngradingUnavailable(l, received, n)
					got := p.OnUnavailable(s, unavailable(l, blockFor, received), n)
					assert.Equal(t, want, normalize(got), "unavailable %s %d/%d retry %d", l, received, blockFor, n)
				}
			}
		}
	}
}

// A lightweight transaction commits at the statement's level (QUORUM) but
// reports its Paxos phase's failures at SERIAL: the serial rules follow the
// error's level, and a retry keeps the statement's level, as the Java
// driver's RETRY_NEXT resends the same statement.
func TestDowngradingSerialRulesFollowTheErrorsLevel(t *testing.T) {
	p := retry.DowngradingPolicy{}
	s := stmt(c.Quorum, retry.Idempotent)
	for _, serial := range []c.Level{c.Serial, c.LocalSerial} {
		assert.Equal(t, next(c.Quorum), p.OnUnavailable(s, unavailable(serial, 2, 0), 0), "%s", serial)
		assert.Equal(t, rethrown, normalize(p.OnUnavailable(s, unavailable(serial, 2, 1), 1)), "%s", serial)
		assert.Equal(t, rethrown, normalize(p.OnReadTimeout(s, readTimeout(serial, 2, 1, false), 0)), "%s", serial)
		assert.Equal(t, rethrown, normalize(p.OnReadTimeout(s, readTimeout(serial, 2, 2, false), 0)), "%s", serial)
		assert.Equal(t, rethrown, normalize(p.OnWriteTimeout(s, writeTimeout(serial, c.WriteCAS, 2, 1), 0)), "%s", serial)
	}
}

// Aborted requests and error responses: DefaultPolicy and DowngradingPolicy
// answer as the Java driver's onRequestAborted / onErrorResponse (closed
// connection and heartbeat: RETRY_NEXT; read and write failures: RETHROW;
// overloaded, server error, truncate: RETRY_NEXT) at every retry count, at
// the failed attempt's level. An error they do not know is rethrown, as
// their doc says (Java retries it; the executor cannot tell an invalid query
// from anything else).
func TestDriverErrorsAtEveryRetryCount(t *testing.T) {
	rf := &c.ReadFailureError{Level: c.One, BlockFor: 1, Failures: 1}
	wf := &c.WriteFailureError{Level: c.One, WriteType: c.WriteSimple, BlockFor: 1, Failures: 1}
	cases := []struct {
		err  error
		next bool
	}{
		{retry.ErrConnectionClosed, true},
		{fmt.Errorf("conn 4: %w", retry.ErrHeartbeatFailed), true},
		{&retry.RequestAbortedError{Err: retry.ErrConnectionClosed}, true},
		{&retry.RequestAbortedError{Err: retry.ErrNotSent}, true},
		{&retry.RequestAbortedError{}, false},
		{&retry.RequestAbortedError{Err: retry.ErrOverloaded}, false},
		{retry.ErrOverloaded, true},
		{retry.ErrServerError, true},
		{retry.ErrTruncate, true},
		{rf, false},
		{wf, false},
		{fmt.Errorf("%w: %w", retry.ErrOverloaded, rf), false},
		{errors.New("syntax error"), false},
	}
	for _, p := range []retry.Policy{retry.DefaultPolicy{}, retry.DowngradingPolicy{}} {
		for _, tc := range cases {
			for n := range 4 {
				want := rethrown
				if tc.next {
					want = next(c.LocalOne)
				}
				got := ask(p, stmt(c.LocalOne, retry.Idempotent), tc.err, n)
				assert.Equal(t, want, normalize(got), "%T %v retry %d", p, tc.err, n)
			}
		}
	}
}

func TestFallthroughNeverRetries(t *testing.T) {
	p := retry.FallthroughPolicy{}
	s := stmt(c.Quorum, retry.Idempotent)
	errs := []error{readTimeout(c.Quorum, 2, 2, false), unavailable(c.Quorum, 2, 1), retry.ErrNotSent,
		retry.ErrConnectionClosed, retry.ErrOverloaded}
	for _, wt := range writeTypes {
		errs = append(errs, writeTimeout(c.Quorum, wt, 2, 1))
	}
	for _, err := range errs {
		assert.Equal(t, retry.Rethrow, ask(p, s, err, 0).Decision, "%v", err)
	}
}

// A ladder of two rungs retries at each in turn, then rethrows whatever the
// failure: it runs past its end into nothing (gocql's
// DowngradingConsistencyRetryPolicy.Attempt: attempts > len(levels) stops).
func TestLadderStopsAtItsEnd(t *testing.T) {
	p, err := retry.NewLadderPolicy(c.Two, c.One)
	if !assert.NoError(t, err) {
		return
	}
	assert.Equal(t, same(c.Two), p.OnReadTimeout(stmt(c.Quorum, retry.Idempotent), readTimeout(c.Quorum, 3, 1, false), 0))
	assert.Equal(t, same(c.One), p.OnReadTimeout(stmt(c.Two, retry.Idempotent), readTimeout(c.Two, 2, 1, false), 1))
	s := stmt(c.One, retry.Idempotent)
	errs := []error{readTimeout(c.One, 1, 0, false), unavailable(c.One, 1, 0), unavailable(c.EachQuorum, 2, 0),
		unavailable(c.Serial, 2, 1), retry.ErrConnectionClosed, retry.ErrOverloaded,
		writeTimeout(c.One, c.WriteBatchLog, 1, 0), writeTimeout(c.One, c.WriteSimple, 2, 1),
		writeTimeout(c.One, c.WriteUnloggedBatch, 2, 1)}
	for _, e := range errs {
		for n := 2; n < 5; n++ {
			assert.Equal(t, retry.Rethrow, ask(p, s, e, n).Decision, "%v retry %d", e, n)
		}
	}
	for _, n := range []int{-1, 2, 1 << 30} {
		assert.Equal(t, retry.Rethrow, p.OnReadTimeout(s, readTimeout(c.One, 1, 0, false), n).Decision, "retry %d", n)
	}
}
