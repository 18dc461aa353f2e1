package digest_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
)

// rvRefBytes is the documented Bytes encoding, written naively.
func rvRefBytes(b []byte) []byte {
	out := binary.AppendUvarint(nil, uint64(len(b)))
	if len(b) >= digest.LargeField {
		h := digest.Hash(b)
		return append(out, h[:]...)
	}
	return append(out, b...)
}

// rvOp writes one field to an encoder, or a run of fields through Room,
// Grow and Commit, and appends the documented bytes to ref.
type rvOp func(e *digest.Encoder, ref []byte) []byte

func rvOpGen() *rapid.Generator[rvOp] {
	lengths := rapid.SampledFrom([]int{0, 1, 126, 127, 128, 255, 256, 257, 1000, 1100})
	return rapid.Custom(func(t *rapid.T) rvOp {
		switch rapid.IntRange(0, 7).Draw(t, "op") {
		case 0:
			v := rapid.Int64().Draw(t, "i64")
			return func(e *digest.Encoder, ref []byte) []byte {
				e.Int64(v)
				return binary.LittleEndian.AppendUint64(ref, uint64(v))
			}
		case 1:
			v := rapid.Int32().Draw(t, "i32")
			return func(e *digest.Encoder, ref []byte) []byte {
				e.Int32(v)
				return binary.LittleEndian.AppendUint32(ref, uint32(v))
			}
		case 2:
			v := rapid.Byte().Draw(t, "byte")
			return func(e *digest.Encoder, ref []byte) []byte { e.Byte(v); return append(ref, v) }
		case 3:
			v := rapid.Bool().Draw(t, "bool")
			return func(e *digest.Encoder, ref []byte) []byte {
				e.Bool(v)
				if v {
					return append(ref, 1)
				}
				return append(ref, 0)
			}
		case 4:
			n := rapid.OneOf(rapid.IntRange(0, 300), rapid.IntRange(0, math.MaxInt)).Draw(t, "count")
			return func(e *digest.Encoder, ref []byte) []byte { e.Count(n); return binary.AppendUvarint(ref, uint64(n)) }
		case 5:
			b := make([]byte, lengths.Draw(t, "len"))
			if len(b) > 0 {
				b[len(b)/2] = rapid.Byte().Draw(t, "fill")
			}
			return func(e *digest.Encoder, ref []byte) []byte { e.Bytes(b); return append(ref, rvRefBytes(b)...) }
		case 6:
			s := string(make([]byte, lengths.Draw(t, "len")))
			return func(e *digest.Encoder, ref []byte) []byte { e.String(s); return append(ref, rvRefBytes([]byte(s))...) }
		}
		// A run: Room of a random size (too small, exact, or above the
		// buffer), fields appended, Grow calls of random sizes between
		// them, one Commit.
		room := rapid.IntRange(0, 1100).Draw(t, "room")
		type field struct {
			grow int
			v    int64
			b    []byte
			n    int
		}
		var fields []field
		for range rapid.IntRange(0, 12).Draw(t, "fields") {
			fields = append(fields, field{grow: rapid.IntRange(0, 1100).Draw(t, "grow"), v: rapid.Int64().Draw(t, "v"),
				b: make([]byte, lengths.Draw(t, "len")), n: rapid.IntRange(0, 1<<20).Draw(t, "n")})
		}
		return func(e *digest.Encoder, ref []byte) []byte {
			b := e.Room(room)
			for _, f := range fields {
				b = e.Grow(b, f.grow)
				b = digest.AppendInt64(b, f.v)
				b = digest.AppendBytes(b, f.b)
				b = digest.AppendString(b, string(f.b))
				b = digest.AppendCount(b, f.n)
				b = digest.AppendBool(b, f.n%2 == 0)
				b = digest.AppendInt32(b, int32(f.v))
				ref = binary.LittleEndian.AppendUint64(ref, uint64(f.v))
				ref = append(ref, rvRefBytes(f.b)...)
				ref = append(ref, rvRefBytes(f.b)...)
				ref = binary.AppendUvarint(ref, uint64(f.n))
				ref = append(ref, byte(1-f.n%2))
				ref = binary.LittleEndian.AppendUint32(ref, uint32(int32(f.v)))
			}
			e.Commit(b)
			return ref
		}
	})
}

// Any sequence of fields and runs, hashed (buffered, then streamed past
// the buffer) or appended, is the documented encoding: Sum is Hash of it
// at every step, Appended is it, and reusing the encoder changes nothing.
func TestEncoderIsTheDocumentedEncodingForAnyRuns(t *testing.T) {
	var reused digest.Encoder // kept across checks: its hasher too
	rapid.Check(t, func(t *rapid.T) {
		version := rapid.Byte().Draw(t, "version")
		ops := rapid.SliceOfN(rvOpGen(), 0, 40).Draw(t, "ops")
		var fresh, appending digest.Encoder
		ref := []byte{version}
		reused.Reset(version)
		fresh.Reset(version)
		appending.ResetAppending(version, []byte("prefix"))
		for i, op := range ops {
			next := op(&fresh, ref)
			op(&reused, ref)
			op(&appending, ref)
			ref = next
			if i%5 == 0 {
				want := digest.Hash(ref)
				require.Equal(t, want, fresh.Sum(), "after op %d", i)
				require.Equal(t, want, reused.Sum())
				require.Equal(t, want, appending.Sum())
			}
		}
		want := digest.Hash(ref)
		require.Equal(t, want, fresh.Sum())
		require.Equal(t, want, reused.Sum())
		require.Equal(t, append([]byte("prefix"), ref...), appending.Appended())
		require.Equal(t, want, appending.Sum())
	})
}

// An encoding whose buffer is exactly full: a Room of 0 there is a slice
// of no capacity, and whatever is appended to it moves; the encoding stays
// right.
func TestRoomAtAFullBuffer(t *testing.T) {
	for extra := range 12 {
		var e digest.Encoder
		e.Reset(9)
		ref := []byte{9}
		for len(ref) < 1024-extra {
			e.Byte(byte(len(ref)))
			ref = append(ref, byte(len(ref)))
		}
		for _, n := range []int{0, 1, 8, 2000} {
			b := e.Room(n)
			b = digest.AppendInt64(b, int64(n))
			b = digest.AppendCount(b, 300)
			e.Commit(b)
			ref = binary.LittleEndian.AppendUint64(ref, uint64(n))
			ref = binary.AppendUvarint(ref, 300)
			e.Commit(e.Room(0)) // an empty run
		}
		require.Equal(t, digest.Hash(ref), e.Sum(), "buffer short of full by %d", extra)
	}
}
