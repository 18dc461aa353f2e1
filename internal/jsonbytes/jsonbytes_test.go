package jsonbytes_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/internal/jsonbytes"
)

// Any bytes read back as they were written; UTF-8 is written as the JSON
// string encoding/json writes for it, so JSON written before reads the same.
func TestAnyBytesReadBackUnchanged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes"))
		if rapid.Bool().Draw(t, "utf8") {
			s = rapid.String().Draw(t, "s")
		}
		b, err := json.Marshal(jsonbytes.String(s))
		require.NoError(t, err)
		if utf8.ValidString(s) {
			plain, err := json.Marshal(s)
			require.NoError(t, err)
			assert.Equal(t, string(plain), string(b))
		}
		var back jsonbytes.String
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, s, string(back))
	})
}

// Map keys 0x80 and 0x81, which encoding/json writes as one "\ufffd".
func TestBytesThatAreNotUTF8StayApart(t *testing.T) {
	a, err := json.Marshal(jsonbytes.String("\x00\x00\x00\x80"))
	require.NoError(t, err)
	b, err := json.Marshal(jsonbytes.String("\x00\x00\x00\x81"))
	require.NoError(t, err)
	assert.Equal(t, `{"base64":"AAAAgA=="}`, string(a))
	assert.NotEqual(t, string(a), string(b))
}

func TestNullLeavesTheStringAsItWas(t *testing.T) {
	s := jsonbytes.String("k")
	require.NoError(t, json.Unmarshal([]byte("null"), &s))
	assert.Equal(t, jsonbytes.String("k"), s)
	assert.Error(t, json.Unmarshal([]byte(`{"base64":"!"}`), &s))
	assert.Error(t, json.Unmarshal([]byte(`7`), &s))
}

// A list reads back as it was: nil, empty, or bytes that are not UTF-8;
// an absent field leaves the list as it was.
func TestListsReadBackUnchanged(t *testing.T) {
	for _, ss := range [][]string{nil, {}, {"v", "\xfe\xff"}} {
		b, err := json.Marshal(jsonbytes.Strings(ss))
		require.NoError(t, err)
		back := []string{"was"}
		require.NoError(t, jsonbytes.ReadStrings(b, &back))
		assert.Equal(t, ss, back, "%s", b)
	}
	kept := []string{"was"}
	require.NoError(t, jsonbytes.ReadStrings(nil, &kept))
	assert.Equal(t, []string{"was"}, kept)
	assert.Error(t, jsonbytes.ReadStrings(json.RawMessage(`{}`), &kept))
}
