// Package errtext writes an error field as its text in JSON, and reads it
// back as an error of that text: an error interface would marshal as {}
// (or its concrete type's exported fields), its reason lost, and would not
// unmarshal at all. The exported types whose JSON carries an error
// (coordinator's traces, events and ReadMany results, retry's events,
// attempts and ExecutionError, replica's outcomes, consistency's timeouts
// and failures, and every error type with an Err field) share it.
package errtext

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Of is err's text for JSON, nil (null) for a nil err: fmt's, which
// prints a nil pointer as "<nil>" and recovers a panic of Error into the
// text.
func Of(err error) *string {
	if err == nil {
		return nil
	}
	s := fmt.Sprint(err)
	return &s
}

// Read sets *dst from the JSON Of wrote: an error of the text, nil for
// null; absent (an empty raw) leaves it, as json leaves an absent field.
// Anything else is an error naming field, such as "coordinator:
// RequestTrace.Err".
func Read(dst *error, raw json.RawMessage, field string) error {
	switch {
	case raw == nil:
	case string(raw) == "null":
		*dst = nil
	default:
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return fmt.Errorf("%s: %w", field, err)
		}
		*dst = errors.New(text)
	}
	return nil
}
