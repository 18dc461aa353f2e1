package coordinator

import (
	"encoding/json"

	"github.com/readpath/readpath/internal/errtext"
)

// keyResultFields is KeyResult without its methods, for its JSON.
type keyResultFields KeyResult

// MarshalJSON implements json.Marshaler: Err is written as its text, or
// null when nil, as RequestTrace's is (an error interface would marshal as
// {}, the key's reason lost).
func (r KeyResult) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		keyResultFields
		Err *string // shadows the embedded Err
	}{keyResultFields(r), errtext.Of(r.Err)})
}

// UnmarshalJSON implements json.Unmarshaler: an Err written as text reads
// back as an error whose Error() is that text (errors.Is and errors.As do
// not find the original's sentinels or types in it), null as nil.
func (r *KeyResult) UnmarshalJSON(b []byte) error {
	v := struct {
		*keyResultFields
		Err json.RawMessage // shadows the embedded Err
	}{keyResultFields: (*keyResultFields)(r)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&r.Err, v.Err, "coordinator: KeyResult.Err")
}
