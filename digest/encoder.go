package digest

import (
	"encoding/binary"
	"unsafe"

	"github.com/zeebo/xxh3"
)

// LargeField is the length from which Bytes and String write the field's
// xxh3-128 digest instead of its bytes. Hashing a long value in one call is
// about twice as fast as streaming it, because xxh3's streaming hasher
// copies everything after its first write through an internal buffer.
const LargeField = 256

// bufferSize is how many encoded bytes an Encoder gathers before it feeds
// them to the hash: one call into xxh3 per two dozen cells instead of per
// field. Any one cell of a partition fits in it (three fields of up to 257
// bytes and 21 of numbers), so that one room check covers a cell.
const bufferSize = 4 * LargeField

// Encoder writes the canonical encoding of a sequence of fields and hashes it
// with xxh3-128. Every variable-length field carries its length and every
// repeated group must be preceded by its Count, so that two different
// sequences of fields never encode to the same bytes.
//
// An Encoder is a value meant to live on the stack: declare one, Reset it
// with a version, write fields, Sum. An encoding of up to 1,015 bytes (a
// field of LargeField bytes or more counts as its length's Count and 16) is
// hashed in one call by Sum and allocates nothing. One of 1,016 to 1,024
// bytes may be streamed too, since a field's room is checked for the most it
// could take (ten bytes for a Count); that and any longer encoding go through
// a hasher that the Encoder allocates once and keeps across Resets, so an
// Encoder must not be copied once used. The zero Encoder has not begun an
// encoding: Reset it first. An Encoder is not safe for concurrent use.
//
// Besides a method per field, an Encoder lends its buffer to a run of fields
// (Room, Grow, Commit) written with the Append functions: the encoding is the
// same, and one room check covers the run.
type Encoder struct {
	buf [bufferSize]byte
	n   int // bytes of buf not yet hashed or appended
	// hash streams the encoding once it outgrows buf. It is allocated then
	// rather than embedded because zeroing its 1 KiB buffer would cost the
	// short encodings, most digests, a tenth of their time.
	hash     *xxh3.Hasher128
	streamed bool // whether this encoding has gone to hash
	// appended, when appending, holds dst followed by the encoding, which
	// starts at start.
	appending bool
	appended  []byte
	start     int
}

// Reset begins a new encoding whose first byte is version, forgetting
// everything written before.
func (e *Encoder) Reset(version byte) {
	e.streamed, e.appending, e.appended, e.start = false, false, nil, 0
	e.buf[0], e.n = version, 1
}

// ResetAppending begins a new encoding, as Reset does, whose bytes are
// appended to dst instead of hashed; Appended returns the result.
func (e *Encoder) ResetAppending(version byte, dst []byte) {
	e.Reset(version)
	e.appending, e.appended, e.start = true, dst, len(dst)
}

// Appended returns dst, as given to ResetAppending, followed by the encoding
// so far; nil if the encoder was reset with Reset.
func (e *Encoder) Appended() []byte {
	if !e.appending {
		return nil
	}
	e.flush()
	return e.appended
}

// Sum returns the xxh3-128 digest of the encoding so far, the same as Hash
// of its bytes. It does not end the encoding: more fields may follow.
func (e *Encoder) Sum() Digest {
	switch {
	case e.appending:
		return Hash(e.Appended()[e.start:])
	case !e.streamed:
		return Hash(e.buf[:e.n])
	}
	e.flush()
	return e.hash.Sum128().Bytes()
}

// Hash returns the xxh3-128 digest of b, as Encoder.Sum would return it for
// the encoding b: the 128-bit hash, high half first, each half big-endian.
func Hash(b []byte) Digest { return xxh3.Hash128(b).Bytes() }

// The writers below check for room once and then write in place; only flush
// is a call, so that the short ones inline.

// Int64 writes v as 8 bytes, little-endian two's complement.
func (e *Encoder) Int64(v int64) {
	if e.n > bufferSize-8 {
		e.flush()
	}
	binary.LittleEndian.PutUint64(e.buf[e.n:], uint64(v))
	e.n += 8
}

// Byte writes b as one byte.
func (e *Encoder) Byte(b byte) {
	if e.n == bufferSize {
		e.flush()
	}
	e.buf[e.n] = b
	e.n++
}

// Int32 writes v as 4 bytes, little-endian two's complement.
func (e *Encoder) Int32(v int32) {
	if e.n > bufferSize-4 {
		e.flush()
	}
	binary.LittleEndian.PutUint32(e.buf[e.n:], uint32(v))
	e.n += 4
}

// Bool writes v as one byte, 1 for true and 0 for false.
func (e *Encoder) Bool(v bool) {
	var b byte
	if v {
		b = 1
	}
	e.Byte(b)
}

// Count writes n, the number of items of a repeated group that follow (or
// of bytes, for Bytes and String), as an unsigned LEB128 varint of minimal
// length. A negative n, which no len returns, is written as its 64-bit two's
// complement.
func (e *Encoder) Count(n int) { e.Commit(AppendCount(e.Room(MaxCountLen), n)) }

// Bytes writes Count(len(b)) and then b itself, or Hash(b) (16 bytes) if b is
// at least LargeField long. A nil and an empty b encode alike.
func (e *Encoder) Bytes(b []byte) { e.Commit(AppendBytes(e.Room(MaxBytesLen(len(b))), b)) }

// String is Bytes of the bytes of s.
func (e *Encoder) String(s string) {
	e.Commit(AppendString(e.Room(MaxBytesLen(len(s))), s))
}

// Room returns an empty slice at the end of the encoding with room for n
// bytes, or for 1 KiB if n is more: append fields to it with the Append
// functions, Grow it between runs, and hand it to Commit before any other
// call on e, as with bytes.Buffer's AvailableBuffer and Write. Appending
// past its room is correct, only slower: the slice moves to the heap and
// Commit copies it.
func (e *Encoder) Room(n int) []byte {
	if n > bufferSize-e.n {
		e.flush()
	}
	return e.buf[e.n:e.n]
}

// Grow returns b, a slice from Room, if it has room for n more bytes; else
// it commits b and returns a new Room(n).
func (e *Encoder) Grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	return e.regrow(b, n)
}

func (e *Encoder) regrow(b []byte, n int) []byte {
	e.Commit(b)
	return e.Room(n)
}

// Commit adds b, a slice from Room or Grow with fields appended to it, to
// the encoding.
func (e *Encoder) Commit(b []byte) {
	// Still in buf, where Room left it, b's bytes are written already; if
	// an append moved it, they must be copied.
	if unsafe.Pointer(unsafe.SliceData(b)) == unsafe.Add(unsafe.Pointer(&e.buf), e.n) {
		e.n += len(b)
		return
	}
	e.commitMoved(b)
}

// commitMoved adds b, which outgrew its room, after what buf holds.
func (e *Encoder) commitMoved(b []byte) {
	e.flush()
	e.write(b)
}

// flush moves buf to the hash or to appended. It stays a call, so that the
// writers that check for room before it inline.
//
//go:noinline
func (e *Encoder) flush() {
	b := e.buf[:e.n]
	e.n = 0
	e.write(b)
}

// write moves b, encoded bytes past buf's, to the hash or to appended.
func (e *Encoder) write(b []byte) {
	if e.appending {
		e.appended = append(e.appended, b...)
		return
	}
	if e.hash == nil {
		e.hash = new(xxh3.Hasher128)
	}
	if !e.streamed {
		e.hash.Reset()
		e.streamed = true
	}
	_, _ = e.hash.Write(b)
}
