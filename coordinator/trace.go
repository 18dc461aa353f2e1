package coordinator

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/readpath/readpath/internal/enumname"
	"github.com/readpath/readpath/internal/errtext"
)

// Trace records what one read did, cheaply enough to be always on. Times
// are offsets from Start, on the coordinator's clock (virtual inside a
// testing/synctest bubble). It is a plain value that no read refers to
// once returned, safe for concurrent reads.
type Trace struct {
	Start    time.Time
	Duration time.Duration
	BlockFor int
	// Threshold is the speculative-retry threshold the read ran with;
	// Speculate is false when the table's policy is NEVER.
	Threshold time.Duration
	Speculate bool
	// Requests lists every request sent, in the order sent, and every
	// one refused unsent for its replica's backlog (a *BacklogError,
	// Failed at once), where it would have been sent.
	Requests []RequestTrace
	// Hedge is the first round's speculative request; ReconcileHedge the
	// data request sent, after a digest mismatch, to a replica the read
	// had not contacted; AdditionalWrite the repair writes sent to the
	// replicas whose data the read had not merged (To names the first).
	Hedge           HedgeTrace
	ReconcileHedge  HedgeTrace
	AdditionalWrite HedgeTrace
	// DigestMismatch is true when replicas disagreed and a reconciliation
	// round ran.
	DigestMismatch bool
	// Repaired lists the IDs of the replicas whose answers lacked
	// something of the merge, each sent its diff. The additional writes,
	// of the whole merge to replicas whose data the read had not merged,
	// are in AdditionalWrite and Requests.
	Repaired []string
	// Tombstones is the most tombstones one replica's answer met, or
	// its refusal for them (TombstoneOverwhelmingError.Tombstones);
	// TombstoneWarning is set when an answer's passed the table's
	// warning threshold: a replica's refusal counts as a failure, not a
	// warning, though another's answer may warn in the same read (the
	// read then counts in both, as in Cassandra).
	Tombstones       int
	TombstoneWarning bool
}

// detach returns the trace with its own copy of Requests, which points
// into the read's recycled buffers.
func (t Trace) detach() Trace {
	t.Requests = append([]RequestTrace(nil), t.Requests...)
	return t
}

// RequestKind is what a request asked for. It is a plain value, safe for
// concurrent use.
type RequestKind uint8

// The kinds of request a read sends.
const (
	KindData   RequestKind = iota // a full data read
	KindDigest                    // a digest-only read
	KindRepair                    // a read-repair write (or an additional write)

	// Deprecated: KindMutation is KindRepair, under its old name.
	KindMutation = KindRepair
)

var requestKindNames = []string{"data", "digest", "repair"}

// ErrUnknownRequestKind is wrapped by ParseRequestKind's errors, and by
// RequestKind.MarshalText's for an undefined kind.
var ErrUnknownRequestKind = errors.New("coordinator: unknown request kind")

// String returns "data", "digest" or "repair" (RequestKind(n) for an
// undefined kind).
func (k RequestKind) String() string { return enumname.Of(k, requestKindNames, "RequestKind") }

// ParseRequestKind parses a name String returns, in any ASCII letter case.
func ParseRequestKind(s string) (RequestKind, error) {
	return enumname.Parse[RequestKind](s, requestKindNames, ErrUnknownRequestKind)
}

// MarshalText implements encoding.TextMarshaler with the kind's name. An
// undefined kind is an error wrapping ErrUnknownRequestKind.
func (k RequestKind) MarshalText() ([]byte, error) {
	return enumname.Marshal(k, requestKindNames, ErrUnknownRequestKind)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseRequestKind.
// On error k is left unchanged.
func (k *RequestKind) UnmarshalText(b []byte) error {
	return enumname.Unmarshal(k, b, ParseRequestKind)
}

// Phase is the part of a read a request belongs to. It is a plain value,
// safe for concurrent use.
type Phase uint8

// The phases of a read.
const (
	PhaseInitial     Phase = iota // the contacts the level needs
	PhaseSpeculative              // the first round's hedge, or ALWAYS's up-front extra request
	PhaseReconcile                // full data reads after a digest mismatch
	PhaseRepair                   // repair writes to stale replicas, and additional writes
	PhaseShortRead                // short-read protection: more rows from a replica that reached the limit
)

var phaseNames = []string{"initial", "speculative", "reconcile", "repair", "short read"}

// ErrUnknownPhase is wrapped by ParsePhase's errors, and by
// Phase.MarshalText's for an undefined phase.
var ErrUnknownPhase = errors.New("coordinator: unknown read phase")

// String returns a name such as "short read" (Phase(n) for an undefined
// phase).
func (p Phase) String() string { return enumname.Of(p, phaseNames, "Phase") }

// ParsePhase parses a name String returns, in any ASCII letter case.
func ParsePhase(s string) (Phase, error) {
	return enumname.Parse[Phase](s, phaseNames, ErrUnknownPhase)
}

// MarshalText implements encoding.TextMarshaler with the phase's name. An
// undefined phase is an error wrapping ErrUnknownPhase.
func (p Phase) MarshalText() ([]byte, error) { return enumname.Marshal(p, phaseNames, ErrUnknownPhase) }

// UnmarshalText implements encoding.TextUnmarshaler with ParsePhase. On
// error p is left unchanged.
func (p *Phase) UnmarshalText(b []byte) error {
	return enumname.Unmarshal(p, b, ParsePhase)
}

// Outcome is how a request ended, as far as the read saw. It is a plain
// value, safe for concurrent use.
type Outcome uint8

// The outcomes of a request.
const (
	Pending  Outcome = iota // no answer when the read ended, or its end's error; cancelled
	Answered                // a successful answer
	Failed                  // an error, a panic or an unusable answer
)

var outcomeNames = []string{"pending", "answered", "failed"}

// ErrUnknownOutcome is wrapped by ParseOutcome's errors, and by
// Outcome.MarshalText's for an undefined outcome.
var ErrUnknownOutcome = errors.New("coordinator: unknown request outcome")

// String returns "pending", "answered" or "failed" (Outcome(n) for an
// undefined outcome).
func (o Outcome) String() string { return enumname.Of(o, outcomeNames, "Outcome") }

// ParseOutcome parses a name String returns, in any ASCII letter case.
func ParseOutcome(s string) (Outcome, error) {
	return enumname.Parse[Outcome](s, outcomeNames, ErrUnknownOutcome)
}

// MarshalText implements encoding.TextMarshaler with the outcome's name.
// An undefined outcome is an error wrapping ErrUnknownOutcome.
func (o Outcome) MarshalText() ([]byte, error) {
	return enumname.Marshal(o, outcomeNames, ErrUnknownOutcome)
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseOutcome. On
// error o is left unchanged.
func (o *Outcome) UnmarshalText(b []byte) error {
	return enumname.Unmarshal(o, b, ParseOutcome)
}

// RequestTrace is one request of a read. It is a plain value, safe for
// concurrent reads. In JSON, Err is its text (null for nil), and Sent and
// Done are nanoseconds, as are Trace's and HedgeTrace's durations.
type RequestTrace struct {
	// Endpoint is the replica's ID; Datacenter and Rack are where it is.
	Endpoint   string
	Datacenter string
	Rack       string
	Kind       RequestKind
	Phase      Phase
	// Speculative is true for a round's speculative request.
	Speculative bool
	Outcome     Outcome
	// Used is true when the answer counted towards the result: a data
	// answer returned or merged, or a digest compared with the data. A
	// digest that mismatched is Used too, though its replica's data is in
	// the result only if a data answer of that replica is Used: to know
	// whose data a result holds, look at KindData requests only. A read
	// request that answered after its round had done without it, or after
	// a later round started, but before the read ended, is Answered and
	// not Used; a repair write's outcome is what the read saw as it
	// settled its repairs (a write still out then is Pending, and queued
	// if it was a stale replica's; an additional write is cancelled, not
	// queued: its replica's data never came, so none is known stale).
	Used bool
	// The one-byte fields come together: a read's Requests are copied
	// into its Result, and 8 bytes less a request kept a QUORUM read's
	// copy in a smaller size class.
	Sent time.Duration
	Done time.Duration // when the answer arrived; 0 while Pending
	Err  error
}

// requestTraceFields is RequestTrace without its methods, for its JSON.
type requestTraceFields RequestTrace

// MarshalJSON implements json.Marshaler: Err is written as its text, or
// null when nil (an error interface would marshal as {}, its reason lost).
// The text is as String prints it, "<nil>" for a nil pointer in Err, and a
// panic of its Error method is in the text, not the caller's.
func (r RequestTrace) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		requestTraceFields
		Err *string // shadows the embedded Err
	}{requestTraceFields(r), errtext.Of(r.Err)})
}

// UnmarshalJSON implements json.Unmarshaler: an Err written as text reads
// back as an error whose Error() is that text (not the original error's
// type, so errors.Is and errors.As do not find it), null as nil.
func (r *RequestTrace) UnmarshalJSON(b []byte) error {
	v := struct {
		*requestTraceFields
		Err json.RawMessage // shadows the embedded Err
	}{requestTraceFields: (*requestTraceFields)(r)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&r.Err, v.Err, "coordinator: RequestTrace.Err")
}

// HedgeTrace says whether and why a read hedged. It is a plain value,
// safe for concurrent reads.
type HedgeTrace struct {
	// Fired is true when a speculative request was sent; At is when (or,
	// suppressed, when it was due), To the replica it went to, and Won
	// whether its answer was used.
	Fired bool
	At    time.Duration
	To    string
	Won   bool
	// Suppressed says why a hedge that was due was not sent: the first
	// cause, if several stopped it, and the one TableMetrics counts. Fired
	// may be set too: when the budget (under ALWAYS) or the overload
	// switch held back the extra request and a stand-in for a request
	// refused unsent (see BacklogError) then went out.
	Suppressed SuppressCause
	// Postponed counts the times it was put off, when due, because a
	// request of its round had not yet started: the coordinator's own
	// goroutines had not run (see TableMetrics.PostponedSpeculations).
	Postponed int
}

// SuppressCause is why a due hedge was not sent. It is a plain value,
// safe for concurrent use.
type SuppressCause uint8

// The reasons a hedge is not sent.
const (
	NotSuppressed    SuppressCause = iota
	SuppressedBudget               // the hedge budget was spent
	// SuppressedOverload: the overload switch, with more reads in flight
	// than Config.MaxInFlight, or, whatever MaxInFlight, the table's
	// threshold at or above ReadTimeout or within 1/64 of it (a
	// first-round hedge a failure called for: a slow read's is not due).
	SuppressedOverload
	// NoCandidate: every live replica below its backlog cap was already
	// contacted, or, standing in for requests refused unsent (see
	// BacklogError), too few were left to complete the round. Traced at
	// ALL too, where TableMetrics.NoCandidate does not count it.
	NoCandidate
)

var suppressCauseNames = []string{"", "budget", "overload", "no candidate"}

// ErrUnknownSuppressCause is wrapped by ParseSuppressCause's errors, and
// by SuppressCause.MarshalText's for an undefined cause.
var ErrUnknownSuppressCause = errors.New("coordinator: unknown hedge suppression cause")

// String returns "budget", "overload" or "no candidate", and "" for
// NotSuppressed (SuppressCause(n) for an undefined cause).
func (s SuppressCause) String() string {
	return enumname.Of(s, suppressCauseNames, "SuppressCause")
}

// ParseSuppressCause parses a name String returns, in any ASCII letter
// case: "" is NotSuppressed.
func ParseSuppressCause(s string) (SuppressCause, error) {
	return enumname.Parse[SuppressCause](s, suppressCauseNames, ErrUnknownSuppressCause)
}

// MarshalText implements encoding.TextMarshaler with the cause's name, ""
// for NotSuppressed. An undefined cause is an error wrapping
// ErrUnknownSuppressCause.
func (s SuppressCause) MarshalText() ([]byte, error) {
	if s == NotSuppressed {
		return []byte{}, nil // its name is ""
	}
	return enumname.Marshal(s, suppressCauseNames, ErrUnknownSuppressCause)
}

// UnmarshalText implements encoding.TextUnmarshaler with
// ParseSuppressCause. On error s is left unchanged.
func (s *SuppressCause) UnmarshalText(b []byte) error {
	return enumname.Unmarshal(s, b, ParseSuppressCause)
}

// String renders the trace, one request per line.
func (t Trace) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "read: %v, blockFor %d, threshold %s", t.Duration, t.BlockFor, t.thresholdText())
	if t.Hedge.Fired {
		fmt.Fprintf(&b, ", hedged to %s at %v (won: %v)", t.Hedge.To, t.Hedge.At, t.Hedge.Won)
	} else if t.Hedge.Suppressed != NotSuppressed {
		fmt.Fprintf(&b, ", hedge suppressed: %s", t.Hedge.Suppressed)
	}
	if t.DigestMismatch {
		fmt.Fprintf(&b, ", digest mismatch, repaired %v", t.Repaired)
	}
	if h := t.ReconcileHedge; h.Fired {
		fmt.Fprintf(&b, ", reconcile read to %s at %v", h.To, h.At)
	}
	if h := t.AdditionalWrite; h.Fired {
		fmt.Fprintf(&b, ", additional writes at %v", h.At)
	}
	if t.TombstoneWarning {
		fmt.Fprintf(&b, ", %d tombstones (over the warning threshold)", t.Tombstones)
	}
	for _, h := range [...]struct {
		what string
		n    int
	}{{"hedge", t.Hedge.Postponed}, {"reconcile read", t.ReconcileHedge.Postponed}, {"additional writes", t.AdditionalWrite.Postponed}} {
		if h.n > 0 {
			fmt.Fprintf(&b, ", %s postponed %d×", h.what, h.n)
		}
	}
	for _, r := range t.Requests {
		fmt.Fprintf(&b, "\n  %-8v %-11s %-6s -> %-8s %s", r.Sent, r.Phase, r.Kind, r.Endpoint+r.placeText(), r.outcomeText())
	}
	return b.String()
}

func (t Trace) thresholdText() string {
	if !t.Speculate {
		return "none"
	}
	return t.Threshold.String()
}

// placeText is where the replica is, as replica.Endpoint prints it
// ("dc/rack"), or its rack alone if the trace names no datacenter (one
// read back from JSON written before traces had it).
func (r RequestTrace) placeText() string {
	switch {
	case r.Datacenter != "":
		return " (" + r.Datacenter + "/" + r.Rack + ")"
	case r.Rack != "":
		return " (" + r.Rack + ")"
	}
	return ""
}

func (r RequestTrace) outcomeText() string {
	switch {
	case r.Outcome == Pending:
		return "pending"
	case r.Outcome == Failed:
		return fmt.Sprintf("failed at %v: %v", r.Done, r.Err)
	case r.Used:
		return fmt.Sprintf("answered at %v, used", r.Done)
	}
	return fmt.Sprintf("answered at %v", r.Done)
}
