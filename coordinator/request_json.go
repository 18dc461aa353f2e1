package coordinator

import (
	"encoding/json"

	"github.com/readpath/readpath/internal/jsonbytes"
)

// A request carried or logged as JSON keeps its keys and columns as the
// bytes they are, as replica.Command's JSON does: one that is not UTF-8 is
// written as {"base64": "..."} (encoding/json wrote U+FFFD for each such
// byte, and the next page of a request so carried was refused, its paging
// state made for another partition). Columns, written last, keeps nil
// (every column) and empty (none) apart.

type (
	requestFields     Request
	manyRequestFields ManyRequest
)

// MarshalJSON implements json.Marshaler.
func (r Request) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Table string
		Key   jsonbytes.String
		requestFields
		Columns []jsonbytes.String
	}{r.Table, jsonbytes.String(r.Key), requestFields(r), jsonbytes.Strings(r.Columns)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (r *Request) UnmarshalJSON(b []byte) error {
	v := struct {
		Table   *string
		Key     *jsonbytes.String
		Columns json.RawMessage
		*requestFields
	}{Table: &r.Table, Key: (*jsonbytes.String)(&r.Key), requestFields: (*requestFields)(r)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return jsonbytes.ReadStrings(v.Columns, &r.Columns)
}

// MarshalJSON implements json.Marshaler. Next's own bookkeeping,
// unexported, is not written: read back, the request is what its fields
// say, as one set afresh (see Limit).
func (r ManyRequest) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Table string
		Keys  []jsonbytes.String
		manyRequestFields
		Columns []jsonbytes.String
	}{r.Table, jsonbytes.Strings(r.Keys), manyRequestFields(r), jsonbytes.Strings(r.Columns)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (r *ManyRequest) UnmarshalJSON(b []byte) error {
	v := struct {
		Table   *string
		Keys    json.RawMessage
		Columns json.RawMessage
		*manyRequestFields
	}{Table: &r.Table, manyRequestFields: (*manyRequestFields)(r)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if err := jsonbytes.ReadStrings(v.Keys, &r.Keys); err != nil {
		return err
	}
	return jsonbytes.ReadStrings(v.Columns, &r.Columns)
}
