package jsonbytes_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/readpath/readpath/internal/jsonbytes"
)

// Any bytes read back as they were, alone, in a struct and in a list (nil,
// empty or split from the bytes); UTF-8 is written as encoding/json writes
// it; whatever JSON decodes to a String writes and reads back the same.
// (Written by a review.)
func FuzzAnyBytesReadBack(f *testing.F) {
	for _, s := range []string{"", "a", "\x80", "\xff\xfe", "\u2028<>&", "\xed\xa0\x80", "{\"base64\":\"AA==\"}", "\"", "\\u00", "null"} {
		f.Add([]byte(s), byte(0))
		f.Add([]byte(s), byte(1))
		f.Add([]byte(s), byte(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, mode byte) {
		s := string(data)
		b, err := json.Marshal(jsonbytes.String(s))
		if err != nil {
			t.Fatalf("marshal %q: %v", s, err)
		}
		if !json.Valid(b) {
			t.Fatalf("invalid JSON %s for %q", b, s)
		}
		if utf8.ValidString(s) {
			plain, _ := json.Marshal(s)
			if !bytes.Equal(plain, b) {
				t.Fatalf("UTF-8 %q written as %s, encoding/json writes %s", s, b, plain)
			}
		}
		var back jsonbytes.String
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if string(back) != s {
			t.Fatalf("%q read back as %q via %s", s, back, b)
		}
		// Inside a struct and indented.
		type wrap struct{ S jsonbytes.String }
		bi, err := json.MarshalIndent(wrap{jsonbytes.String(s)}, " ", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var w wrap
		if err := json.Unmarshal(bi, &w); err != nil || string(w.S) != s {
			t.Fatalf("indented %q read back as %q (%v) via %s", s, w.S, err, bi)
		}
		// Lists split at a separator byte.
		var ss []string
		switch mode % 3 {
		case 0:
			ss = nil
		case 1:
			ss = []string{}
		default:
			for _, p := range bytes.Split(data, []byte{0}) {
				ss = append(ss, string(p))
			}
		}
		lb, err := json.Marshal(jsonbytes.Strings(ss))
		if err != nil {
			t.Fatal(err)
		}
		got := []string{"was"}
		if err := jsonbytes.ReadStrings(lb, &got); err != nil {
			t.Fatalf("ReadStrings %s: %v", lb, err)
		}
		if (got == nil) != (ss == nil) || len(got) != len(ss) {
			t.Fatalf("list %q read back as %q via %s", ss, got, lb)
		}
		for i := range ss {
			if got[i] != ss[i] {
				t.Fatalf("list %q read back as %q via %s", ss, got, lb)
			}
		}
		// The bytes as JSON input: whatever decodes re-encodes and decodes the same.
		var x jsonbytes.String
		if err := json.Unmarshal(data, &x); err == nil {
			b2, err := json.Marshal(x)
			if err != nil {
				t.Fatal(err)
			}
			var y jsonbytes.String
			if err := json.Unmarshal(b2, &y); err != nil || y != x {
				t.Fatalf("decoded %q from %q, re-encoded %s read back %q (%v)", x, data, b2, y, err)
			}
		}
	})
}
