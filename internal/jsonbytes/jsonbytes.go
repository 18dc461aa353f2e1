// Package jsonbytes writes strings of arbitrary bytes (keys, clustering
// keys, column names, cell paths) to JSON and reads them back unchanged.
// encoding/json replaces each byte that is not UTF-8 with U+FFFD, so that
// two map keys 0x80 and 0x81 read back as one.
package jsonbytes

import (
	"encoding/json"
	"unicode/utf8"
)

// String is a string of bytes in JSON: a JSON string when it is UTF-8,
// as encoding/json writes any string, else {"base64": "..."}. A plain
// value, safe for concurrent use.
type String string

type encoded struct {
	Base64 []byte `json:"base64"`
}

// MarshalJSON implements json.Marshaler.
func (s String) MarshalJSON() ([]byte, error) {
	if utf8.ValidString(string(s)) {
		return json.Marshal(string(s))
	}
	return json.Marshal(encoded{[]byte(s)})
}

// UnmarshalJSON implements json.Unmarshaler, reading either form.
func (s *String) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '{' {
		var e encoded
		if err := json.Unmarshal(b, &e); err != nil {
			return err
		}
		*s = String(e.Base64)
		return nil
	}
	var str *string
	if err := json.Unmarshal(b, &str); err != nil {
		return err
	}
	if str != nil { // null leaves s as it was, as for a string
		*s = String(*str)
	}
	return nil
}

// Strings returns ss as Strings to marshal, nil (every column, in a
// column selection) kept apart from empty (none).
func Strings(ss []string) []String {
	if ss == nil {
		return nil
	}
	out := make([]String, len(ss))
	for i, s := range ss {
		out[i] = String(s)
	}
	return out
}

// ReadStrings reads into *ss the list raw holds, null as nil; an absent
// field (raw nil) leaves *ss as it was, as encoding/json does.
func ReadStrings(raw json.RawMessage, ss *[]string) error {
	if raw == nil {
		return nil
	}
	var list []String
	if err := json.Unmarshal(raw, &list); err != nil {
		return err
	}
	*ss = nil
	if list != nil {
		*ss = make([]string, len(list))
		for i, s := range list {
			(*ss)[i] = string(s)
		}
	}
	return nil
}
