package replicatest

import (
	"encoding/json"

	"github.com/readpath/readpath/internal/errtext"
)

// These errors write their Err as its text in JSON, and read it back as
// an error of that text (errors.Is and errors.As find nothing in it):
// an error interface marshalled as {}, its reason lost, and did not
// unmarshal at all (see internal/errtext).

type configErrorFields ConfigError

// MarshalJSON implements json.Marshaler.
func (e ConfigError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		configErrorFields
		Err *string // shadows the embedded Err
	}{configErrorFields(e), errtext.Of(e.Err)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *ConfigError) UnmarshalJSON(b []byte) error {
	v := struct {
		*configErrorFields
		Err json.RawMessage // shadows the embedded Err
	}{configErrorFields: (*configErrorFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&e.Err, v.Err, "replicatest: ConfigError.Err")
}

type requestErrorFields RequestError

// MarshalJSON implements json.Marshaler.
func (e RequestError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		requestErrorFields
		Err *string // shadows the embedded Err
	}{requestErrorFields(e), errtext.Of(e.Err)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *RequestError) UnmarshalJSON(b []byte) error {
	v := struct {
		*requestErrorFields
		Err json.RawMessage // shadows the embedded Err
	}{requestErrorFields: (*requestErrorFields)(e)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return errtext.Read(&e.Err, v.Err, "replicatest: RequestError.Err")
}
