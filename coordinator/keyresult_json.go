package coordinator

import (
	"encoding/json"

	"github.com/readpath/readpath/internal/errtext"
	"github.com/readpath/readpath/internal/jsonbytes"
)

// keyResultFields is KeyResult without its methods, for its JSON.
type keyResultFields KeyResult

// MarshalJSON implements json.Marshaler: Err is written as its text, or
// null when nil, as RequestTrace's is (an error interface would marshal as
// {}, the key's reason lost); Key as bytes, as replica.Partition's is.
func (r KeyResult) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Key jsonbytes.String // shadows the embedded Key
		keyResultFields
		Err *string // shadows the embedded Err
	}{jsonbytes.String(r.Key), keyResultFields(r), errtext.Of(r.Err)})
}

// UnmarshalJSON implements json.Unmarshaler: an Err written as text reads
// back as an error whose Error() is that text (errors.Is and errors.As do
// not find the original's sentinels or types in it), null as nil.
func (r *KeyResult) UnmarshalJSON(b []byte) error {
	v := struct {
		Key *jsonbytes.String
		*keyResultFields
		Err json.RawMessage // shadows the embedded Err
	}{Key: (*jsonbytes.String)(&r.Key), keyResultFields: (*keyResultFields)(r)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&r.Err, v.Err, "coordinator: KeyResult.Err")
}
