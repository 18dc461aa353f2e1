package replica

import (
	"encoding/json"

	"github.com/readpath/readpath/internal/jsonbytes"
)

// The data's JSON keeps keys, clustering keys, column names and paths as
// the bytes they are (see the package doc): a string that is not UTF-8 is
// written as {"base64": "..."}, where encoding/json would write U+FFFD for
// each byte that is not, so that a map's keys 0x80 and 0x81 read back as
// one. UTF-8 is written as before. Each type shadows its byte strings
// ahead of the rest of its fields, which keep their order (but for a
// Command's Columns and a ValidationError's row, column and path, written
// last).

type (
	partitionFields       Partition
	rowFields             Row
	cellFields            Cell
	complexDeletionFields ComplexDeletion
	boundFields           Bound
	viewFields            View
	viewRowFields         ViewRow
	commandFields         Command
	tombstoneErrorFields  TombstoneOverwhelmingError
	validationErrorFields ValidationError
)

// MarshalJSON implements json.Marshaler.
func (p Partition) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Key jsonbytes.String
		partitionFields
	}{jsonbytes.String(p.Key), partitionFields(p)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (p *Partition) UnmarshalJSON(b []byte) error {
	v := struct {
		Key *jsonbytes.String
		*partitionFields
	}{(*jsonbytes.String)(&p.Key), (*partitionFields)(p)}
	return json.Unmarshal(b, &v)
}

// MarshalJSON implements json.Marshaler.
func (r Row) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Clustering jsonbytes.String
		rowFields
	}{jsonbytes.String(r.Clustering), rowFields(r)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (r *Row) UnmarshalJSON(b []byte) error {
	v := struct {
		Clustering *jsonbytes.String
		*rowFields
	}{(*jsonbytes.String)(&r.Clustering), (*rowFields)(r)}
	return json.Unmarshal(b, &v)
}

// MarshalJSON implements json.Marshaler.
func (c Cell) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Column, Path jsonbytes.String
		cellFields
	}{jsonbytes.String(c.Column), jsonbytes.String(c.Path), cellFields(c)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *Cell) UnmarshalJSON(b []byte) error {
	v := struct {
		Column, Path *jsonbytes.String
		*cellFields
	}{(*jsonbytes.String)(&c.Column), (*jsonbytes.String)(&c.Path), (*cellFields)(c)}
	return json.Unmarshal(b, &v)
}

// MarshalJSON implements json.Marshaler.
func (d ComplexDeletion) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Column jsonbytes.String
		complexDeletionFields
	}{jsonbytes.String(d.Column), complexDeletionFields(d)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (d *ComplexDeletion) UnmarshalJSON(b []byte) error {
	v := struct {
		Column *jsonbytes.String
		*complexDeletionFields
	}{(*jsonbytes.String)(&d.Column), (*complexDeletionFields)(d)}
	return json.Unmarshal(b, &v)
}

// MarshalJSON implements json.Marshaler.
func (b Bound) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Clustering jsonbytes.String
		boundFields
	}{jsonbytes.String(b.Clustering), boundFields(b)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (b *Bound) UnmarshalJSON(data []byte) error {
	v := struct {
		Clustering *jsonbytes.String
		*boundFields
	}{(*jsonbytes.String)(&b.Clustering), (*boundFields)(b)}
	return json.Unmarshal(data, &v)
}

// MarshalJSON implements json.Marshaler.
func (v View) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Key jsonbytes.String
		viewFields
	}{jsonbytes.String(v.Key), viewFields(v)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (v *View) UnmarshalJSON(b []byte) error {
	w := struct {
		Key *jsonbytes.String
		*viewFields
	}{(*jsonbytes.String)(&v.Key), (*viewFields)(v)}
	return json.Unmarshal(b, &w)
}

// MarshalJSON implements json.Marshaler.
func (r ViewRow) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Clustering jsonbytes.String
		viewRowFields
	}{jsonbytes.String(r.Clustering), viewRowFields(r)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (r *ViewRow) UnmarshalJSON(b []byte) error {
	v := struct {
		Clustering *jsonbytes.String
		*viewRowFields
	}{(*jsonbytes.String)(&r.Clustering), (*viewRowFields)(r)}
	return json.Unmarshal(b, &v)
}

// MarshalJSON implements json.Marshaler. Columns keeps nil (every column)
// and empty (none) apart, as null and [].
func (c Command) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Table string
		Key   jsonbytes.String
		commandFields
		Columns []jsonbytes.String
	}{c.Table, jsonbytes.String(c.Key), commandFields(c), jsonbytes.Strings(c.Columns)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *Command) UnmarshalJSON(b []byte) error {
	v := struct {
		Table   *string
		Key     *jsonbytes.String
		Columns json.RawMessage
		*commandFields
	}{Table: &c.Table, Key: (*jsonbytes.String)(&c.Key), commandFields: (*commandFields)(c)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return jsonbytes.ReadStrings(v.Columns, &c.Columns)
}

// MarshalJSON implements json.Marshaler.
func (e TombstoneOverwhelmingError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Table string
		Key   jsonbytes.String
		tombstoneErrorFields
	}{e.Table, jsonbytes.String(e.Key), tombstoneErrorFields(e)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *TombstoneOverwhelmingError) UnmarshalJSON(b []byte) error {
	v := struct {
		Table *string
		Key   *jsonbytes.String
		*tombstoneErrorFields
	}{&e.Table, (*jsonbytes.String)(&e.Key), (*tombstoneErrorFields)(e)}
	return json.Unmarshal(b, &v)
}

// MarshalJSON implements json.Marshaler; Clustering, Column and Path come
// after the rest.
func (e ValidationError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Key jsonbytes.String
		validationErrorFields
		Clustering, Column, Path jsonbytes.String
	}{jsonbytes.String(e.Key), validationErrorFields(e), jsonbytes.String(e.Clustering),
		jsonbytes.String(e.Column), jsonbytes.String(e.Path)})
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *ValidationError) UnmarshalJSON(b []byte) error {
	v := struct {
		Key *jsonbytes.String
		*validationErrorFields
		Clustering, Column, Path *jsonbytes.String
	}{(*jsonbytes.String)(&e.Key), (*validationErrorFields)(e), (*jsonbytes.String)(&e.Clustering),
		(*jsonbytes.String)(&e.Column), (*jsonbytes.String)(&e.Path)}
	return json.Unmarshal(b, &v)
}
