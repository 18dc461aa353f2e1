package digest_test

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
)

// field is one Encoder call, for tests that compare the encoder with the
// naive reference below.
type field struct {
	kind  int // one of the kind constants
	num   int64
	flag  bool
	bytes []byte
}

const (
	kindInt64 = iota
	kindInt32
	kindBool
	kindByte
	kindCount
	kindBytes
	kindString
	kinds
)

func (f field) write(e *digest.Encoder) {
	switch f.kind {
	case kindInt64:
		e.Int64(f.num)
	case kindInt32:
		e.Int32(int32(f.num))
	case kindBool:
		e.Bool(f.flag)
	case kindByte:
		e.Byte(byte(f.num))
	case kindCount:
		e.Count(int(f.num))
	case kindBytes:
		e.Bytes(f.bytes)
	case kindString:
		e.String(string(f.bytes))
	}
}

// appendReference encodes f as the package documentation says, one field at
// a time, with no buffering.
func (f field) appendReference(b []byte) []byte {
	switch f.kind {
	case kindInt64:
		return binary.LittleEndian.AppendUint64(b, uint64(f.num))
	case kindInt32:
		return binary.LittleEndian.AppendUint32(b, uint32(int32(f.num)))
	case kindBool:
		if f.flag {
			return append(b, 1)
		}
		return append(b, 0)
	case kindByte:
		return append(b, byte(f.num))
	case kindCount:
		return binary.AppendUvarint(b, uint64(f.num))
	}
	b = binary.AppendUvarint(b, uint64(len(f.bytes)))
	if len(f.bytes) >= digest.LargeField {
		sum := xxh3.Hash128(f.bytes).Bytes()
		return append(b, sum[:]...)
	}
	return append(b, f.bytes...)
}

func drawField(t *rapid.T, kind int, label string) field {
	f := field{kind: kind}
	switch kind {
	case kindInt64:
		f.num = rapid.Int64().Draw(t, label)
	case kindInt32:
		f.num = int64(rapid.Int32().Draw(t, label))
	case kindBool:
		f.flag = rapid.Bool().Draw(t, label)
	case kindByte:
		f.num = int64(rapid.Byte().Draw(t, label))
	case kindCount:
		f.num = int64(rapid.IntRange(0, math.MaxInt).Draw(t, label))
	default:
		// Lengths around LargeField and up to 3 KiB, so that fields straddle
		// the encoder's buffer and the hash's blocks.
		n := rapid.OneOf(rapid.IntRange(0, 130), rapid.IntRange(digest.LargeField-3, digest.LargeField+1), rapid.IntRange(0, 3<<10)).Draw(t, label+" length")
		f.bytes = rapid.SliceOfN(rapid.Byte(), n, n).Draw(t, label)
	}
	return f
}

// encode returns the digest and the encoding, appended to dst, of fields,
// written once with Reset and once with ResetAppending.
func encode(version byte, dst []byte, fields []field) (digest.Digest, []byte) {
	var e digest.Encoder
	e.Reset(version)
	for _, f := range fields {
		f.write(&e)
	}
	sum := e.Sum()
	e.ResetAppending(version, dst)
	for _, f := range fields {
		f.write(&e)
	}
	return sum, e.Appended()
}

func TestEncoderFieldEncodings(t *testing.T) {
	tests := []struct {
		name  string
		field field
		want  string
	}{
		{"int64 zero", field{kind: kindInt64}, "0000000000000000"},
		{"int64 one", field{kind: kindInt64, num: 1}, "0100000000000000"},
		{"int64 minus one", field{kind: kindInt64, num: -1}, "ffffffffffffffff"},
		{"int64 min", field{kind: kindInt64, num: math.MinInt64}, "0000000000000080"},
		{"int64 bytes order", field{kind: kindInt64, num: 0x0102030405060708}, "0807060504030201"},
		{"int32 minus two", field{kind: kindInt32, num: -2}, "feffffff"},
		{"int32 max", field{kind: kindInt32, num: math.MaxInt32}, "ffffff7f"},
		{"bool false", field{kind: kindBool}, "00"},
		{"bool true", field{kind: kindBool, flag: true}, "01"},
		{"byte", field{kind: kindByte, num: 0xa5}, "a5"},
		{"count zero", field{kind: kindCount}, "00"},
		{"count 127", field{kind: kindCount, num: 127}, "7f"},
		{"count 128", field{kind: kindCount, num: 128}, "8001"},
		{"count 300", field{kind: kindCount, num: 300}, "ac02"},
		{"bytes nil", field{kind: kindBytes}, "00"},
		{"bytes empty", field{kind: kindBytes, bytes: []byte{}}, "00"},
		{"bytes", field{kind: kindBytes, bytes: []byte{0, 0xff}}, "0200ff"},
		{"string empty", field{kind: kindString}, "00"},
		{"string", field{kind: kindString, bytes: []byte("héllo")}, "0668c3a96c6c6f"},
		{"bytes 128", field{kind: kindBytes, bytes: make([]byte, 128)}, "8001" + strings.Repeat("00", 128)},
		{"bytes just short of large", field{kind: kindBytes, bytes: make([]byte, digest.LargeField-1)}, "ff01" + strings.Repeat("00", digest.LargeField-1)},
		// 256 zero bytes are written as their length and xxh3-128 digest.
		{"bytes large", field{kind: kindBytes, bytes: make([]byte, digest.LargeField)}, "8002" + "bb039d71e9630a91a68dfbb1d75c6e8d"},
		{"string large", field{kind: kindString, bytes: make([]byte, digest.LargeField)}, "8002" + "bb039d71e9630a91a68dfbb1d75c6e8d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, got := encode(digest.V1, nil, []field{tt.field})
			assert.Equal(t, "01"+tt.want, hex.EncodeToString(got))
			assert.Equal(t, digest.Hash(got), sum)
		})
	}
}

func TestEncoderMatchesNaiveReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		version := rapid.Byte().Draw(t, "version")
		dst := rapid.SliceOfN(rapid.Byte(), 0, 8).Draw(t, "dst")
		// Up to 150 fields of up to 3 KiB: short and long encodings, streamed
		// or not.
		var fields []field
		for range rapid.IntRange(0, 150).Draw(t, "fields") {
			fields = append(fields, drawField(t, rapid.IntRange(0, kinds-1).Draw(t, "kind"), "field"))
		}
		want := append(append([]byte{}, dst...), version)
		for _, f := range fields {
			want = f.appendReference(want)
		}
		sum, got := encode(version, dst, fields)
		require.Equal(t, want, got)
		assert.Equal(t, digest.Digest(xxh3.Hash128(want[len(dst):]).Bytes()), sum)
	})
}

// TestEncoderIsUnambiguous checks that for one sequence of field kinds, the
// encoding determines the values: lengths and counts leave no boundary free.
func TestEncoderIsUnambiguous(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kindsOf := rapid.SliceOfN(rapid.IntRange(0, kinds-1), 1, 6).Draw(t, "kinds")
		var a, b []field
		for _, k := range kindsOf {
			a = append(a, drawSmallField(t, k, "a"))
			b = append(b, drawSmallField(t, k, "b"))
		}
		_, ea := encode(digest.V1, nil, a)
		_, eb := encode(digest.V1, nil, b)
		assert.Equal(t, equalFields(a, b), string(ea) == string(eb))
	})
}

// drawSmallField draws from few values so that equal and nearly equal fields
// are common.
func drawSmallField(t *rapid.T, kind int, label string) field {
	f := field{kind: kind}
	switch kind {
	case kindBool:
		f.flag = rapid.Bool().Draw(t, label)
	case kindBytes, kindString:
		f.bytes = []byte(rapid.StringMatching(`[ab]{0,3}`).Draw(t, label))
	default:
		f.num = int64(rapid.IntRange(0, 2).Draw(t, label))
	}
	return f
}

func equalFields(a, b []field) bool {
	for i := range a {
		if a[i].num != b[i].num || a[i].flag != b[i].flag || string(a[i].bytes) != string(b[i].bytes) {
			return false
		}
	}
	return len(a) == len(b)
}

func TestEncoderResetForgetsEverything(t *testing.T) {
	var e digest.Encoder
	e.ResetAppending(7, []byte("x"))
	e.String("old data")
	e.Reset(digest.V1)
	e.Int64(42)
	assert.Nil(t, e.Appended(), "Reset stops appending")
	want, _ := encode(digest.V1, nil, []field{{kind: kindInt64, num: 42}})
	assert.Equal(t, want, e.Sum())
}

func TestEncoderSumDoesNotEndTheEncoding(t *testing.T) {
	var e digest.Encoder
	e.Reset(digest.V1)
	e.String("a")
	first := e.Sum()
	e.String("b")
	want, _ := encode(digest.V1, nil, []field{{kind: kindString, bytes: []byte("a")}, {kind: kindString, bytes: []byte("b")}})
	assert.Equal(t, want, e.Sum())
	assert.NotEqual(t, first, e.Sum())
}

func TestEncoderVersionChangesTheDigest(t *testing.T) {
	one, _ := encode(1, nil, nil)
	two, _ := encode(2, nil, nil)
	assert.NotEqual(t, one, two)
}

func TestEncoderDoesNotAllocateForShortEncodings(t *testing.T) {
	value := make([]byte, 4<<10)
	var sum digest.Digest
	allocs := testing.AllocsPerRun(100, func() {
		var e digest.Encoder
		e.Reset(digest.V1)
		for range 10 {
			e.String("column")
			e.Bool(true)
			e.Bytes(value[:10])
			e.Int64(1700000000000000)
			e.Int32(3600)
			e.Count(3)
		}
		e.Bytes(value) // large: 18 bytes
		sum = e.Sum()
	})
	assert.Zero(t, allocs)
	assert.NotEqual(t, digest.Digest{}, sum)
}

func TestEncoderAllocatesOnceForLongEncodings(t *testing.T) {
	value := make([]byte, 200)
	write := func(e *digest.Encoder) {
		e.Reset(digest.V1)
		for range 1000 {
			e.Bytes(value)
			e.Int64(1)
		}
	}
	assert.Equal(t, 1.0, testing.AllocsPerRun(20, func() {
		var e digest.Encoder
		write(&e)
		_ = e.Sum()
	}), "one hasher, whatever the length")
	var e digest.Encoder
	write(&e)
	first, again := e.Sum(), digest.Digest{}
	assert.Zero(t, testing.AllocsPerRun(20, func() {
		write(&e)
		again = e.Sum()
	}), "a reset encoder keeps its hasher")
	assert.Equal(t, first, again)
}

func TestLargeFieldsDifferByEveryByte(t *testing.T) {
	for _, n := range []int{digest.LargeField, digest.LargeField + 1, 4 << 10} {
		base := make([]byte, n)
		want, _ := encode(digest.V1, nil, []field{{kind: kindBytes, bytes: base}})
		for _, i := range []int{0, n / 2, n - 1} {
			changed := append([]byte{}, base...)
			changed[i] = 1
			got, _ := encode(digest.V1, nil, []field{{kind: kindBytes, bytes: changed}})
			assert.NotEqual(t, want, got, "length %d, byte %d", n, i)
		}
		longer, _ := encode(digest.V1, nil, []field{{kind: kindBytes, bytes: append(base, 0)}})
		assert.NotEqual(t, want, longer, "length %d", n)
	}
}

func TestSumAfterResetAppendingHashesOnlyTheEncoding(t *testing.T) {
	var e digest.Encoder
	e.ResetAppending(digest.V1, []byte("prefix"))
	e.String("a")
	want, _ := encode(digest.V1, nil, []field{{kind: kindString, bytes: []byte("a")}})
	assert.Equal(t, want, e.Sum())
	assert.Equal(t, "prefix\x01\x01a", string(e.Appended()))
}
