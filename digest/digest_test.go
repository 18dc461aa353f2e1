package digest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
)

func TestDigestStringIsLowerCaseHex(t *testing.T) {
	d := digest.Digest{0x00, 0x01, 0xab, 0xcd, 0xef, 15: 0xff}
	assert.Equal(t, "0001abcdef00000000000000000000ff", d.String())
}

func TestParseDigestRoundTripsString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var d digest.Digest
		copy(d[:], rapid.SliceOfN(rapid.Byte(), 16, 16).Draw(t, "bytes"))
		for _, s := range []string{d.String(), strings.ToUpper(d.String())} {
			got, err := digest.ParseDigest(s)
			require.NoError(t, err)
			assert.Equal(t, d, got)
		}
	})
}

func TestParseDigestRejectsWhatStringCannotWrite(t *testing.T) {
	const valid = "0001abcdef00000000000000000000ff"
	for _, in := range []string{
		"", valid[:31], valid + "0", " " + valid, valid[:31] + "\n", "0x" + valid[2:],
		"g001abcdef00000000000000000000ff", "0001abcdef0000000000000000000-ff", "00\x00" + valid[3:],
	} {
		got, err := digest.ParseDigest(in)
		require.Error(t, err, "%q", in)
		assert.Equal(t, digest.Digest{}, got)
		assert.ErrorIs(t, err, digest.ErrInvalidDigest)
		var pe *digest.ParseError
		require.True(t, errors.As(err, &pe))
		assert.Equal(t, in, pe.Input)
		assert.True(t, strings.HasPrefix(err.Error(), "digest: invalid digest "), err.Error())
	}
}

func TestParseErrorSaysWhatIsWrong(t *testing.T) {
	_, err := digest.ParseDigest("abc")
	assert.EqualError(t, err, `digest: invalid digest "abc": want 32 hex digits, have 3 bytes`)
	_, err = digest.ParseDigest(strings.Repeat("x", 32))
	assert.EqualError(t, err, `digest: invalid digest "`+strings.Repeat("x", 32)+`": not hex`)
}

func FuzzParseDigest(f *testing.F) {
	for _, s := range []string{"", "0001abcdef00000000000000000000ff", "0001ABCDEF00000000000000000000FF", "0001abcdef0000000000000000000xff", "0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := digest.ParseDigest(s)
		if err != nil {
			assert.ErrorIs(t, err, digest.ErrInvalidDigest)
			assert.Equal(t, digest.Digest{}, d)
			return
		}
		assert.Equal(t, strings.ToLower(s), d.String())
	})
}
