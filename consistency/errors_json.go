package consistency

import (
	"encoding/json"
	"fmt"

	"github.com/readpath/readpath/internal/errtext"
)

// The errors that carry errors (a timeout's Cause, a failure's Reasons)
// write them in JSON as their text, null for nil, as readpath's traces and
// events do: an error interface would marshal as {}, the reason lost, and
// would not unmarshal. Read back, each is an error whose Error() is that
// text: errors.Is and errors.As do not find the original's sentinels or
// types in it. Level and WriteType are their names.

type (
	readTimeoutFields  ReadTimeoutError
	writeTimeoutFields WriteTimeoutError
	readFailureFields  ReadFailureError
	writeFailureFields WriteFailureError
)

// MarshalJSON implements json.Marshaler: Cause is written as its text.
func (e ReadTimeoutError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		*readTimeoutFields
		Cause *string // shadows the embedded Cause
	}{(*readTimeoutFields)(&e), errtext.Of(e.Cause)})
}

// UnmarshalJSON implements json.Unmarshaler: a Cause written as text
// reads back as an error of that text.
func (e *ReadTimeoutError) UnmarshalJSON(b []byte) error {
	v := struct {
		*readTimeoutFields
		Cause json.RawMessage // shadows the embedded Cause
	}{readTimeoutFields: (*readTimeoutFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&e.Cause, v.Cause, "consistency: ReadTimeoutError.Cause")
}

// MarshalJSON implements json.Marshaler: Cause is written as its text.
func (e WriteTimeoutError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		*writeTimeoutFields
		Cause *string // shadows the embedded Cause
	}{(*writeTimeoutFields)(&e), errtext.Of(e.Cause)})
}

// UnmarshalJSON implements json.Unmarshaler: a Cause written as text
// reads back as an error of that text.
func (e *WriteTimeoutError) UnmarshalJSON(b []byte) error {
	v := struct {
		*writeTimeoutFields
		Cause json.RawMessage // shadows the embedded Cause
	}{writeTimeoutFields: (*writeTimeoutFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&e.Cause, v.Cause, "consistency: WriteTimeoutError.Cause")
}

// MarshalJSON implements json.Marshaler: each of Reasons is written as
// its text.
func (e ReadFailureError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		*readFailureFields
		Reasons map[string]*string // shadows the embedded Reasons
	}{(*readFailureFields)(&e), reasonsOut(e.Reasons)})
}

// UnmarshalJSON implements json.Unmarshaler: each of Reasons written as
// text reads back as an error of that text.
func (e *ReadFailureError) UnmarshalJSON(b []byte) error {
	v := struct {
		*readFailureFields
		Reasons json.RawMessage // shadows the embedded Reasons
	}{readFailureFields: (*readFailureFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return reasonsIn(&e.Reasons, v.Reasons, "consistency: ReadFailureError.Reasons")
}

// MarshalJSON implements json.Marshaler: each of Reasons is written as
// its text.
func (e WriteFailureError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		*writeFailureFields
		Reasons map[string]*string // shadows the embedded Reasons
	}{(*writeFailureFields)(&e), reasonsOut(e.Reasons)})
}

// UnmarshalJSON implements json.Unmarshaler: each of Reasons written as
// text reads back as an error of that text.
func (e *WriteFailureError) UnmarshalJSON(b []byte) error {
	v := struct {
		*writeFailureFields
		Reasons json.RawMessage // shadows the embedded Reasons
	}{writeFailureFields: (*writeFailureFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return reasonsIn(&e.Reasons, v.Reasons, "consistency: WriteFailureError.Reasons")
}

// reasonsOut is reasons as text, nil for nil (null, as json writes a nil
// map).
func reasonsOut(reasons map[string]error) map[string]*string {
	if reasons == nil {
		return nil
	}
	out := make(map[string]*string, len(reasons))
	for id, err := range reasons {
		out[id] = errtext.Of(err)
	}
	return out
}

// reasonsIn sets *dst from what reasonsOut wrote: absent leaves it, as
// json leaves an absent field, and null sets it nil; a map replaces it,
// not merged into the old one, so that a decoded error holds only the
// reasons its JSON gave. On error *dst is left unchanged.
func reasonsIn(dst *map[string]error, raw json.RawMessage, field string) error {
	switch {
	case raw == nil:
		return nil
	case string(raw) == "null":
		*dst = nil
		return nil
	}
	var texts map[string]json.RawMessage
	if err := json.Unmarshal(raw, &texts); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	m := make(map[string]error, len(texts))
	for id, r := range texts {
		var err error
		if e := errtext.Read(&err, r, fmt.Sprintf("%s[%q]", field, id)); e != nil {
			return e
		}
		m[id] = err
	}
	*dst = m
	return nil
}
