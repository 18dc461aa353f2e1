package retry

import (
	"errors"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/internal/enumname"
)

// Decision is what a Policy decides after a failed attempt.
//
// The zero Decision is Rethrow, so that a Verdict a policy forgot to fill in
// never retries. Like every enum here, it is a plain value, safe for
// concurrent use.
type Decision uint8

// The decisions, named as in the DataStax drivers.
const (
	// Rethrow stops and returns the error to the caller.
	Rethrow Decision = iota
	// RetrySame tries again on the same target.
	RetrySame
	// RetryNext tries again on the next target of the plan.
	RetryNext
	// Ignore stops and reports success with an empty result: the failure is
	// known to be harmless, such as a write timeout after which the write is
	// already durable on a replica.
	Ignore
)

// ErrUnknownDecision is returned, wrapped, by ParseDecision, and by
// Decision.MarshalText for an undefined decision.
var ErrUnknownDecision = errors.New("retry: unknown decision")

var decisionNames = []string{
	Rethrow:   "RETHROW",
	RetrySame: "RETRY_SAME",
	RetryNext: "RETRY_NEXT",
	Ignore:    "IGNORE",
}

// String returns the driver's name, such as "RETRY_NEXT".
func (d Decision) String() string { return enumname.Of(d, decisionNames, "Decision") }

// ParseDecision parses a name String returns, in any letter case.
func ParseDecision(s string) (Decision, error) {
	return enumname.Parse[Decision](s, decisionNames, ErrUnknownDecision)
}

// MarshalText implements encoding.TextMarshaler with the decision's name,
// so that JSON writes it as "RETRY_NEXT", not a number. An undefined
// decision is an error wrapping ErrUnknownDecision.
func (d Decision) MarshalText() ([]byte, error) {
	return enumname.Marshal(d, decisionNames, ErrUnknownDecision)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseDecision. On
// error d is left unchanged.
func (d *Decision) UnmarshalText(b []byte) error {
	return enumname.Unmarshal(d, b, ParseDecision)
}

// Verdict is a Policy's answer to a failed attempt: what to do, and at which
// consistency level the next attempt runs.
//
// Always set Level when retrying: the zero Level is ANY, and the executor
// refuses a retry at ANY for a statement that did not ask for ANY. A Verdict
// is a plain value, safe for concurrent use.
type Verdict struct {
	Decision Decision
	// Level is the level of the next attempt: the failed attempt's level
	// unless the policy downgrades it. Ignore and Rethrow do not read it.
	Level consistency.Level
}

// String returns, for example, "RETRY_SAME at ONE", or "RETHROW".
func (v Verdict) String() string {
	if v.Decision == Rethrow {
		return v.Decision.String()
	}
	return v.Decision.String() + " at " + v.Level.String()
}

func rethrow() Verdict                      { return Verdict{Decision: Rethrow} }
func retrySame(l consistency.Level) Verdict { return Verdict{Decision: RetrySame, Level: l} }
func retryNext(l consistency.Level) Verdict { return Verdict{Decision: RetryNext, Level: l} }
func ignoreAt(l consistency.Level) Verdict  { return Verdict{Decision: Ignore, Level: l} }

// onlyIf returns v if ok, else Rethrow.
func onlyIf(ok bool, v Verdict) Verdict {
	if ok {
		return v
	}
	return rethrow()
}
