package digest_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
)

// appendField appends f with the Append function of its kind.
func (f field) appendField(b []byte) []byte {
	switch f.kind {
	case kindInt64:
		return digest.AppendInt64(b, f.num)
	case kindInt32:
		return digest.AppendInt32(b, int32(f.num))
	case kindBool:
		return digest.AppendBool(b, f.flag)
	case kindByte:
		return append(b, byte(f.num))
	case kindCount:
		return digest.AppendCount(b, int(f.num))
	case kindBytes:
		return digest.AppendBytes(b, f.bytes)
	}
	return digest.AppendString(b, string(f.bytes))
}

// maxLen is the room f takes at most.
func (f field) maxLen() int {
	switch f.kind {
	case kindInt64:
		return 8
	case kindInt32:
		return 4
	case kindBool, kindByte:
		return 1
	case kindCount:
		return digest.MaxCountLen
	}
	return digest.MaxBytesLen(len(f.bytes))
}

func TestAppendFunctionsWriteWhatTheReferenceDoes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := drawField(t, rapid.IntRange(0, kinds-1).Draw(t, "kind"), "field")
		prefix := []byte("prefix")
		got := f.appendField(prefix[:len(prefix):len(prefix)])
		require.Equal(t, f.appendReference(prefix[:len(prefix):len(prefix)]), got)
		assert.LessOrEqual(t, len(got)-len(prefix), f.maxLen(), "MaxBytesLen or MaxCountLen too small")
	})
}

// TestRunsOfAppendedFieldsEncodeAsTheMethods writes random fields in runs
// through Room, Grow and Commit, some runs given less room than they take
// (so that appends move them off the buffer), and compares with the
// methods' encoding, hashed and appended.
func TestRunsOfAppendedFieldsEncodeAsTheMethods(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var fields []field
		for range rapid.IntRange(0, 150).Draw(t, "fields") {
			fields = append(fields, drawField(t, rapid.IntRange(0, kinds-1).Draw(t, "kind"), "field"))
		}
		wantSum, want := encode(digest.V2, nil, fields)
		write := func(e *digest.Encoder) {
			for rest := fields; len(rest) > 0; {
				n := rapid.IntRange(1, len(rest)).Draw(t, "run")
				b := e.Room(rapid.IntRange(0, 2000).Draw(t, "room"))
				for _, f := range rest[:n] {
					if rapid.Bool().Draw(t, "grow") {
						b = e.Grow(b, f.maxLen())
					}
					b = f.appendField(b)
				}
				e.Commit(b)
				rest = rest[n:]
			}
		}
		var e digest.Encoder
		e.Reset(digest.V2)
		write(&e)
		require.Equal(t, wantSum, e.Sum())
		e.ResetAppending(digest.V2, nil)
		write(&e)
		require.Equal(t, want, e.Appended())
	})
}

// A run that Grow gives room for each field stays on the buffer: nothing
// moves, so nothing is allocated, however long the encoding.
func TestGrownRunsDoNotAllocate(t *testing.T) {
	value := make([]byte, digest.LargeField-1) // the longest field written whole
	var e digest.Encoder
	write := func() {
		e.Reset(digest.V2)
		b := e.Room(0)
		for range 100 {
			b = e.Grow(b, 3*digest.MaxBytesLen(len(value))+digest.MaxCountLen)
			b = digest.AppendString(b, string(value[:5]))
			b = digest.AppendBytes(b, value)
			b = digest.AppendBytes(b, value[:200])
			b = digest.AppendCount(b, math.MaxInt)
		}
		e.Commit(b)
		_ = e.Sum()
	}
	write() // the hasher of long encodings, once
	assert.Zero(t, testing.AllocsPerRun(20, write))
}

func TestCommitOfAnEmptyRoomWritesNothing(t *testing.T) {
	var e digest.Encoder
	e.ResetAppending(digest.V2, nil)
	e.Commit(e.Room(10))
	e.Commit(e.Grow(e.Room(0), 5))
	assert.Equal(t, []byte{digest.V2}, e.Appended())
}
