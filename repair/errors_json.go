package repair

import (
	"encoding/json"

	"github.com/readpath/readpath/internal/errtext"
)

// These errors write their Err as its text in JSON, and read it back as
// an error of that text (errors.Is and errors.As find nothing in it):
// an error interface marshalled as {}, its reason lost, and did not
// unmarshal at all (see internal/errtext).

type versionsErrorFields VersionsError

// MarshalJSON implements json.Marshaler.
func (e VersionsError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		versionsErrorFields
		Err *string // shadows the embedded Err
	}{versionsErrorFields(e), errtext.Of(e.Err)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *VersionsError) UnmarshalJSON(b []byte) error {
	v := struct {
		*versionsErrorFields
		Err json.RawMessage // shadows the embedded Err
	}{versionsErrorFields: (*versionsErrorFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&e.Err, v.Err, "repair: VersionsError.Err")
}
