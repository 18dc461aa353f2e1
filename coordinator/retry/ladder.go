package retry

import (
	"errors"
	"fmt"
	"slices"

	"github.com/readpath/readpath/consistency"
)

// ErrInvalidLadder is returned, wrapped, by NewLadderPolicy and
// LadderPolicy.Validate.
var ErrInvalidLadder = errors.New("retry: invalid ladder")

// LadderError says which rung of a LadderPolicy is invalid, and why. It is
// not modified once returned: safe for concurrent reads.
type LadderError struct {
	Index  int               // position of the bad rung in Levels
	Level  consistency.Level // the bad rung
	Reason string
}

func (e *LadderError) Error() string {
	return fmt.Sprintf("%v: rung %d (%s): %s", ErrInvalidLadder, e.Index, e.Level, e.Reason)
}

// Unwrap returns ErrInvalidLadder.
func (e *LadderError) Unwrap() error { return ErrInvalidLadder }

// LadderPolicy retries down an explicit list of levels, one rung per retry:
// retry n (retryCount n) that downgrades runs at Levels[n], and past the
// last rung every failure is rethrown but a request not sent (ErrNotSent),
// which goes on to the next target at the same level (see
// OnRequestAborted). A retry at the same level (after a lost connection, a
// transient error response or a BATCH_LOG write timeout) takes its rung all
// the same, as both drivers count it: the downgrade after it goes to the
// rung after, and past a one-rung ladder it rethrows. It is gocql's
// DowngradingConsistencyRetryPolicy, made safer: a counter write timeout
// rethrows (gocql reports a half-applied increment as success), and a
// ladder that would raise or repeat a level is rejected.
//
// Build it with NewLadderPolicy, which validates the rungs. A LadderPolicy
// that does not validate (the zero value has no rungs) rethrows every
// failure, and a rung that would raise the failed attempt's level rethrows
// too. It downgrades: read DowngradingPolicy's warning. Do not modify Levels
// once in use; the policy is then safe for concurrent use.
type LadderPolicy struct {
	// Levels are the rungs, each strictly weaker than the one before, none
	// ANY or serial.
	Levels []consistency.Level
}

var _ Policy = LadderPolicy{}

// NewLadderPolicy returns a ladder over a copy of levels, or a *LadderError
// (or, for no levels, an error wrapping ErrInvalidLadder) if a rung is ANY,
// serial or undefined, or is not strictly weaker than the rung before it:
// a rung that needs more replicas than the one before it under some
// replication, or as many under every one (ONE after LOCAL_ONE), is refused.
func NewLadderPolicy(levels ...consistency.Level) (LadderPolicy, error) {
	p := LadderPolicy{Levels: slices.Clone(levels)}
	if err := p.Validate(); err != nil {
		return LadderPolicy{}, err
	}
	return p, nil
}

// Validate returns the error NewLadderPolicy would return for p.Levels.
func (p LadderPolicy) Validate() error {
	if len(p.Levels) == 0 {
		return fmt.Errorf("%w: no levels", ErrInvalidLadder)
	}
	if i, reason := p.badRung(); reason != "" {
		return &LadderError{Index: i, Level: p.Levels[i], Reason: reason}
	}
	return nil
}

// badRung returns the first invalid rung and why, without allocating.
func (p LadderPolicy) badRung() (int, string) {
	for i, l := range p.Levels {
		switch {
		case !l.Valid():
			return i, "undefined level"
		case l == consistency.Any:
			return i, "ANY keeps a write as a hint only, and cannot serve a read"
		case l.IsSerial():
			return i, "a serial level is not a downgrade of anything"
		case i > 0 && !strictlyWeaker(l, p.Levels[i-1]):
			return i, "not strictly weaker than " + p.Levels[i-1].String()
		}
	}
	return 0, ""
}

// open reports whether retry n is on a valid ladder.
func (p LadderPolicy) open(n int) bool {
	if n < 0 || n >= len(p.Levels) {
		return false
	}
	_, reason := p.badRung()
	return reason == ""
}

// retryAt retries at rung n unless the ladder is over, invalid, or the rung
// would raise the level current failed at.
func (p LadderPolicy) retryAt(n int, current consistency.Level) Verdict {
	if !p.open(n) || !weakerOrEqual(p.Levels[n], current) {
		return rethrow()
	}
	return retrySame(p.Levels[n])
}

// OnReadTimeout retries at the next rung, except a serial read (which tells
// an application what a timed-out CAS did; a weaker read cannot) and a
// timeout with enough answers and the data (the Java driver's sign of a
// digest mismatch: only a repair helps), which rethrow. The coordinator's
// own timeout after a mismatch counts fewer than BlockFor, so it steps down.
func (p LadderPolicy) OnReadTimeout(s Statement, err *consistency.ReadTimeoutError, retryCount int) Verdict {
	if err.Level.IsSerial() || (err.Received >= err.BlockFor && err.DataPresent) {
		return rethrow()
	}
	return p.retryAt(retryCount, s.Level)
}

// OnWriteTimeout acts while rungs remain: it ignores an acknowledged SIMPLE
// or BATCH write (durable on a replica, it will spread); retries an
// UNLOGGED_BATCH at the next rung so that every part gets written; retries a
// BATCH_LOG write as is. COUNTER writes rethrow, since an increment retried
// may be counted twice, as do CAS, VIEW, CDC and unacknowledged writes.
func (p LadderPolicy) OnWriteTimeout(s Statement, err *consistency.WriteTimeoutError, retryCount int) Verdict {
	return onlyIf(p.open(retryCount), writeTimeoutVerdict(s, err, p.retryAt(retryCount, s.Level)))
}

// OnUnavailable rethrows when no replica is alive, tries the next target at
// a serial level (the Paxos phase; the coordinator may be cut off), and
// otherwise retries at the next rung. At EACH_QUORUM a count of 0 is the
// one datacenter's that fell short, not the others', so it takes the next
// rung, as DowngradingPolicy does (JAVA-1005).
func (p LadderPolicy) OnUnavailable(s Statement, err *consistency.UnavailableError, retryCount int) Verdict {
	switch {
	case !p.open(retryCount), err.Alive == 0 && err.Level != consistency.EachQuorum:
		return rethrow()
	case err.Level.IsSerial():
		return retryNext(s.Level)
	}
	return p.retryAt(retryCount, s.Level)
}

// OnRequestAborted answers as DefaultPolicy does while rungs remain, at the
// same level: a lost connection says nothing about the replicas. A request
// not sent (ErrNotSent, with no lost connection, heartbeat, abort sent or
// error response joined to it) tries the next target past the last rung
// too: it consumes no rung (see Policy), as the drivers move past a node
// they could not send to without asking their policy.
func (p LadderPolicy) OnRequestAborted(s Statement, err error, retryCount int) Verdict {
	if classify(err).notSent() {
		retryCount = 0 // it takes no rung, so it finds the ladder open if valid
	}
	return onlyIf(p.open(retryCount), abortedVerdict(s, err))
}

// OnErrorResponse answers as DefaultPolicy does while rungs remain, at the
// same level.
func (p LadderPolicy) OnErrorResponse(s Statement, err error, retryCount int) Verdict {
	return onlyIf(p.open(retryCount), errorResponseVerdict(s, err))
}
