package digest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/digest"
)

// An encoding of up to limit bytes is hashed in one call and allocates
// nothing, whatever field ends it (Encoder's doc): limit is where the room a
// Count checks for, ten bytes, still fits in the 1,024-byte buffer.
func TestEncoderDoesNotAllocateUpTo1015Bytes(t *testing.T) {
	const limit = 1015
	large := make([]byte, digest.LargeField)
	// The field that ends the encoding, by the bytes it takes.
	lasts := map[string]int{"Count": 1, "short Bytes": 1 + 8, "long Bytes": 2 + 200, "large Bytes": 2 + 16, "Int64": 8, "Int32": 4, "Byte": 1}
	for name, size := range lasts {
		// encode writes limit bytes ending with the field name; a direct
		// call, so that the Encoder stays on the stack.
		encode := func(e *digest.Encoder) {
			for range limit - 1 - size {
				e.Byte(0)
			}
			switch name {
			case "Count":
				e.Count(1)
			case "short Bytes":
				e.Bytes(large[:8])
			case "long Bytes":
				e.Bytes(large[:200])
			case "large Bytes":
				e.Bytes(large)
			case "Int64":
				e.Int64(1)
			case "Int32":
				e.Int32(1)
			case "Byte":
				e.Byte(1)
			}
		}
		assert.Zero(t, testing.AllocsPerRun(20, func() {
			var e digest.Encoder
			e.Reset(digest.V2)
			encode(&e)
			_ = e.Sum()
		}), "ending with %s", name)

		var e digest.Encoder
		e.ResetAppending(digest.V2, nil)
		encode(&e)
		assert.Len(t, e.Appended(), limit, "ending with %s", name)
	}
}
