package retry

import (
	"encoding/json"

	"github.com/readpath/readpath/internal/errtext"
)

type executionErrorFields ExecutionError

// MarshalJSON implements json.Marshaler: Reason and Err are written as
// their text, or null when nil (as interfaces they marshalled as {}, why
// the statement stopped lost); the levels are their names and Attempts
// the array of its records.
func (e ExecutionError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		*executionErrorFields
		Reason, Err *string // shadow the embedded ones
	}{(*executionErrorFields)(&e), errtext.Of(e.Reason), errtext.Of(e.Err)})
}

// UnmarshalJSON implements json.Unmarshaler: Reason and Err written as
// text read back as errors whose Error() is that text, null as nil; a
// Reason of the text of ErrTooManyRetries and the like (the package's
// reasons, or the context's errors) reads back as that error, and a
// context's error with its cause as one wrapping it, so errors.Is matches
// it as the original (not the error of a failed attempt, Err).
func (e *ExecutionError) UnmarshalJSON(b []byte) error {
	v := struct {
		*executionErrorFields
		Reason, Err json.RawMessage // shadow the embedded ones
	}{executionErrorFields: (*executionErrorFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if err := readReason(&e.Reason, v.Reason, "retry: ExecutionError.Reason"); err != nil {
		return err
	}
	return errtext.Read(&e.Err, v.Err, "retry: ExecutionError.Err")
}
