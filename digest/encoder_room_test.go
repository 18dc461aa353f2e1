package digest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/digest"
)

// A reused Encoder allocates nothing, however its fields fall against the
// end of its buffer: a field that does not fit in what is left flushes the
// buffer first (Room: "with room for n bytes"), it is never appended past
// the buffer's end, which moves it to the heap. Encoder's doc: the hasher is
// allocated once and kept across Resets. Each pad puts a 200-byte field
// (202 bytes with its length) at another offset from the buffer's end.
func TestAReusedEncoderDoesNotAllocateWhereverAFieldMeetsTheBufferEnd(t *testing.T) {
	value := make([]byte, 200)
	var e digest.Encoder
	for pad := range 220 {
		write := func() {
			e.Reset(digest.V2)
			for range pad {
				e.Byte(0)
			}
			for range 12 {
				e.Bytes(value)
			}
			_ = e.Sum()
		}
		write() // the hasher
		assert.Zero(t, testing.AllocsPerRun(5, write), "pad %d", pad)
	}
}

// ParseDigest accepts exactly 32 hex digits: 34 or 64 of them, valid hex
// that would overrun the 16 bytes of a Digest, are a *ParseError, not a
// panic (ParseDigest's doc: "parses the 32 hex digits that String writes").
func TestParseDigestRejectsLongerHex(t *testing.T) {
	const valid = "0001abcdef00000000000000000000ff"
	for _, in := range []string{valid + "00", valid + valid, strings.Repeat("f", 48)} {
		var got digest.Digest
		var err error
		assert.NotPanics(t, func() { got, err = digest.ParseDigest(in) }, "%q", in)
		assert.ErrorIs(t, err, digest.ErrInvalidDigest, "%q", in)
		assert.Equal(t, digest.Digest{}, got)
	}
}
