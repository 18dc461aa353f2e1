package retry

import (
	"encoding/json"
	"fmt"

	"github.com/readpath/readpath/internal/errtext"
)

// The JSON of the events and results an OnRetry or OnDowngrade hook, or a
// caller, would log: an error is written as its text (null for nil) and
// read back as an error of that text only, where an error interface would
// marshal as {} and not read back; the enums are their names, durations
// nanoseconds.

type (
	retryEventFields    RetryEvent
	attemptRecordFields AttemptRecord
	statementFields     Statement
)

// MarshalJSON implements json.Marshaler: Err is written as its text, or
// null when nil; Delay is nanoseconds.
func (e RetryEvent) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		retryEventFields
		Err *string // shadows the embedded Err
	}{retryEventFields(e), errtext.Of(e.Err)})
}

// UnmarshalJSON implements json.Unmarshaler: an Err written as text reads
// back as an error whose Error() is that text (errors.Is and errors.As do
// not find the original's sentinels or types in it), null as nil.
func (e *RetryEvent) UnmarshalJSON(b []byte) error {
	v := struct {
		*retryEventFields
		Err json.RawMessage // shadows the embedded Err
	}{retryEventFields: (*retryEventFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&e.Err, v.Err, "retry: RetryEvent.Err")
}

// MarshalJSON implements json.Marshaler: Err and Reason are written as
// their text, or null when nil. A verdict the executor refused for an
// undefined decision or level (Reason ErrInvalidVerdict), whose enums do
// not marshal, is written as its text, "Decision(9) at QUORUM": the record
// of a broken policy is the one a caller most needs to log.
func (r AttemptRecord) MarshalJSON() ([]byte, error) {
	verdict, err := json.Marshal(r.Verdict)
	if err != nil {
		verdict, _ = json.Marshal(r.Verdict.String())
	}
	return json.Marshal(struct {
		attemptRecordFields
		Verdict     json.RawMessage // shadows the embedded one, written where it was
		Err, Reason *string         // shadow the embedded ones
	}{attemptRecordFields(r), verdict, errtext.Of(r.Err), errtext.Of(r.Reason)})
}

// UnmarshalJSON implements json.Unmarshaler: Err and Reason written as
// text read back as errors whose Error() is that text, null as nil; a
// Reason of the text of ErrRethrown and the like reads back as that error
// (see ExecutionError.UnmarshalJSON). A refused verdict written as text
// reads back as Rethrow, what the executor did instead.
func (r *AttemptRecord) UnmarshalJSON(b []byte) error {
	v := struct {
		*attemptRecordFields
		Err, Reason json.RawMessage // shadow the embedded ones
		Verdict     json.RawMessage // shadows the embedded one
	}{attemptRecordFields: (*attemptRecordFields)(r)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	var text string
	switch {
	case v.Verdict == nil || string(v.Verdict) == "null":
	case json.Unmarshal(v.Verdict, &text) == nil:
		r.Verdict = rethrow()
	default:
		if err := json.Unmarshal(v.Verdict, &r.Verdict); err != nil {
			return err
		}
	}
	if err := errtext.Read(&r.Err, v.Err, "retry: AttemptRecord.Err"); err != nil {
		return err
	}
	return readReason(&r.Reason, v.Reason, "retry: AttemptRecord.Reason")
}

// MarshalJSON implements json.Marshaler: a History is the array of its
// attempts, in order (its fields are unexported: it marshalled as {}).
func (h History) MarshalJSON() ([]byte, error) {
	rs := make([]AttemptRecord, 0, h.n)
	for _, r := range h.All() {
		rs = append(rs, r)
	}
	return json.Marshal(rs)
}

// UnmarshalJSON implements json.Unmarshaler: it replaces h's attempts with
// the array's; null leaves h unchanged, as json leaves a null slice.
func (h *History) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var rs []AttemptRecord
	if err := json.Unmarshal(b, &rs); err != nil {
		return err
	}
	*h = History{}
	for _, r := range rs {
		h.add(r)
	}
	return nil
}

// MarshalJSON implements json.Marshaler: Level and Idempotent are their
// names, and Policy, which no JSON can make again, is its type's name, as
// fmt's %T prints it ("retry.FallthroughPolicy"), or null when nil.
func (s Statement) MarshalJSON() ([]byte, error) {
	var policy *string
	if s.Policy != nil {
		name := fmt.Sprintf("%T", s.Policy)
		policy = &name
	}
	return json.Marshal(struct {
		statementFields
		Policy *string // shadows the embedded Policy
	}{statementFields(s), policy})
}

// UnmarshalJSON implements json.Unmarshaler: Policy, written as its type's
// name, reads back as nil (absent, it is left as it was, as json leaves an
// absent field).
func (s *Statement) UnmarshalJSON(b []byte) error {
	v := struct {
		*statementFields
		Policy json.RawMessage // shadows the embedded Policy
	}{statementFields: (*statementFields)(s)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Policy != nil {
		s.Policy = nil
	}
	return nil
}
