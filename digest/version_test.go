package digest_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/digest"
)

func TestResolve(t *testing.T) {
	for in, want := range map[byte]byte{0: digest.Latest, digest.V1: digest.V1, digest.V2: digest.V2} {
		got, err := digest.Resolve(in)
		require.NoError(t, err)
		assert.Equal(t, want, got, "version %d", in)
	}
	for _, in := range []byte{digest.Latest + 1, 255} {
		got, err := digest.Resolve(in)
		assert.Zero(t, got)
		require.ErrorIs(t, err, digest.ErrUnknownVersion)
		var ve *digest.VersionError
		require.True(t, errors.As(err, &ve))
		assert.Equal(t, in, ve.Version)
	}
	assert.EqualError(t, &digest.VersionError{Version: 3}, "digest: unknown encoding version 3 (this build knows 1 to 2)")
}

func TestDigestMarshalsAsHexText(t *testing.T) {
	d := digest.Digest{0x00, 0x01, 0xab, 0xcd, 0xef, 15: 0xff}
	text, err := d.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, d.String(), string(text))

	b, err := json.Marshal(map[string]digest.Digest{"digest": d})
	require.NoError(t, err)
	assert.JSONEq(t, `{"digest":"0001abcdef00000000000000000000ff"}`, string(b))
	var back map[string]digest.Digest
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, d, back["digest"])
}

func TestDigestUnmarshalTextLeavesTheDigestOnError(t *testing.T) {
	d := digest.Digest{1}
	err := d.UnmarshalText([]byte("not hex"))
	require.ErrorIs(t, err, digest.ErrInvalidDigest)
	assert.Equal(t, digest.Digest{1}, d)
	require.Error(t, json.Unmarshal([]byte(`"0001"`), &d))
	assert.Equal(t, digest.Digest{1}, d)
	require.NoError(t, d.UnmarshalText([]byte("0001ABCDEF00000000000000000000FF")))
	assert.Equal(t, digest.Digest{0x00, 0x01, 0xab, 0xcd, 0xef, 15: 0xff}, d)
}
