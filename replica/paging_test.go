package replica_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

var pagedQuery = replica.Query{Slices: []replica.Slice{slice(replica.StartAt("b"), replica.EndBefore("x"))}, Limit: 2}

func TestPagingStateResumesAfterTheLastRow(t *testing.T) {
	s := replica.NewPagingState("t", "k", pagedQuery, []string{"v", "w"}, "c")
	assert.False(t, s.IsZero())
	next, err := s.Resume("t", "k", pagedQuery, []string{"w", "v", "w"})
	require.NoError(t, err, "the same columns in any order")
	assert.Equal(t, pagedQuery.After("c"), next)

	reversed := pagedQuery
	reversed.Reversed = true
	s = replica.NewPagingState("t", "k", reversed, nil, "c")
	next, err = s.Resume("t", "k", reversed, nil)
	require.NoError(t, err)
	assert.Equal(t, []replica.Slice{slice(replica.StartAt("b"), replica.EndBefore("c"))}, next.Slices)
	assert.True(t, next.Reversed)

	equivalent := replica.Query{Slices: []replica.Slice{slice(replica.StartAt("b"), replica.EndBefore("x"))}, Limit: 2, Reversed: true}
	equivalent.Slices[0].End = replica.EndAt("w\xff\xff") // not the same bound
	_, err = s.Resume("t", "k", equivalent, nil)
	assert.Error(t, err, "another slice")
	every := replica.NewPagingState("t", "k", replica.Query{Limit: 1}, nil, "c")
	_, err = every.Resume("t", "k", replica.Query{Slices: []replica.Slice{slice(replica.StartAt(""), replica.Top())}, Limit: 1}, nil)
	assert.NoError(t, err, "nil slices and a slice from StartAt(\"\") continue alike after a row")
}

func TestPagingStateRefusesAnotherRead(t *testing.T) {
	cols := []string{"v"}
	s := replica.NewPagingState("t", "k", pagedQuery, cols, "c")
	other := func(f func(q *replica.Query)) replica.Query {
		q := pagedQuery
		q.Slices = append([]replica.Slice(nil), q.Slices...)
		f(&q)
		return q
	}
	tests := []struct {
		name       string
		table, key string
		q          replica.Query
		columns    []string
	}{
		{"another table", "u", "k", pagedQuery, cols},
		{"another key", "t", "j", pagedQuery, cols},
		{"another order", "t", "k", other(func(q *replica.Query) { q.Reversed = true }), cols},
		{"another limit", "t", "k", other(func(q *replica.Query) { q.Limit = 3 }), cols},
		{"another slice", "t", "k", other(func(q *replica.Query) { q.Slices[0].Start = replica.StartAfter("b") }), cols},
		{"no slice", "t", "k", other(func(q *replica.Query) { q.Slices = []replica.Slice{} }), cols},
		{"every column", "t", "k", pagedQuery, nil},
		{"no column", "t", "k", pagedQuery, []string{}},
		{"other columns", "t", "k", pagedQuery, []string{"v", "w"}},
		{"table and key run together", "tk", "", pagedQuery, cols},
	}
	for _, tt := range tests {
		_, err := s.Resume(tt.table, tt.key, tt.q, tt.columns)
		assert.EqualError(t, err, "replica: invalid paging state: made for another table, partition, query or column selection", tt.name)
		assert.ErrorIs(t, err, replica.ErrInvalidPagingState, tt.name)
	}
	_, err := replica.PagingState{}.Resume("t", "k", pagedQuery, cols)
	assert.EqualError(t, err, "replica: invalid paging state: the zero paging state continues no read")
	_, err = s.Resume("t", "k", replica.Query{Limit: -1}, cols)
	assert.ErrorIs(t, err, replica.ErrInvalidQuery, "an invalid query is the query's error")
}

func TestPagingStateMarshalling(t *testing.T) {
	s := replica.NewPagingState("t", "k", pagedQuery, nil, "c")
	b, err := s.MarshalBinary()
	require.NoError(t, err)
	require.Len(t, b, 1+1+1+8+4, "version, length, key, fingerprint, checksum")
	var got replica.PagingState
	require.NoError(t, got.UnmarshalBinary(b))
	assert.Equal(t, s, got)

	_, err = replica.PagingState{}.MarshalBinary()
	assert.EqualError(t, err, "replica: invalid paging state: the zero paging state has nothing to encode")

	flipped := bytes.Clone(b)
	flipped[2] ^= 1
	long := append(bytes.Clone(b[:len(b)-4]), 0)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "empty"},
		{"another version", append([]byte{3}, b[1:]...), "unknown version 3"},
		{"version 0", append([]byte{0}, b[1:]...), "unknown version 0"},
		{"a bad length", []byte{1, 0x80, 0x80}, "malformed length"},
		{"truncated", b[:len(b)-1], "truncated or with bytes to spare"},
		{"just the version", b[:1], "malformed length"},
		{"bytes to spare", append(bytes.Clone(b), 0), "truncated or with bytes to spare"},
		{"a huge length", []byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "truncated or with bytes to spare"},
		{"a flipped bit", flipped, "checksum mismatch"},
		{"the checksum of less", long, "truncated or with bytes to spare"},
		{"a length in more bytes than it needs", sealed(1, 0x81, 0x00, 'c', fp), "malformed length"},
		{"version 2 without rows remaining", sealed(2, 1, 'c', fp), "truncated or with bytes to spare"},
		{"no rows remaining", sealed(2, 1, 'c', 0, fp), "malformed rows remaining"},
		{"rows remaining in more bytes than they need", sealed(2, 1, 'c', 0x83, 0x00, fp), "malformed rows remaining"},
		{"more rows remaining than an int holds", sealed(2, 1, 'c', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, fp), "malformed rows remaining"},
		{"rows remaining in version 1", sealed(1, 1, 'c', 3, fp), "truncated or with bytes to spare"},
	}
	for _, tt := range tests {
		before := s
		err := before.UnmarshalBinary(tt.data)
		assert.EqualError(t, err, "replica: invalid paging state: "+tt.want, tt.name)
		var pse *replica.PagingStateError
		assert.True(t, errors.As(err, &pse), tt.name)
		assert.Equal(t, s, before, "%s: the state is unchanged", tt.name)
	}
}

// sealed is a state's encoding of the given bytes, where fp stands for the
// eight bytes of a fingerprint, with a checksum that matches.
func sealed(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch p := p.(type) {
		case []byte:
			b = append(b, p...)
		case int:
			b = append(b, byte(p))
		case rune:
			b = append(b, byte(p))
		}
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

var fp = []byte{1, 2, 3, 4, 5, 6, 7, 8}

// A state with rows remaining lowers the limit of the page it resumes to
// them, travels in version 2, and one without stays byte for byte in
// version 1, which states made before version 2 are in.
func TestPagingStateRowsRemaining(t *testing.T) {
	s := replica.NewPagingState("t", "k", pagedQuery, nil, "c")
	assert.Zero(t, s.Remaining())
	v1, err := s.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, byte(1), v1[0])
	assert.Equal(t, s, s.WithRemaining(0), "no bound")
	assert.Equal(t, s, s.WithRemaining(-1), "no bound")

	for _, tc := range []struct{ remaining, limit int }{{1, 1}, {2, 2}, {5, 2}} {
		r := s.WithRemaining(tc.remaining)
		assert.Equal(t, tc.remaining, r.Remaining())
		next, err := r.Resume("t", "k", pagedQuery, nil)
		require.NoError(t, err)
		assert.Equal(t, tc.limit, next.Limit, "%d remaining under a limit of 2", tc.remaining)
		assert.Equal(t, pagedQuery.After("c").Slices, next.Slices)

		b, err := r.MarshalBinary()
		require.NoError(t, err)
		assert.Equal(t, byte(2), b[0])
		assert.Len(t, b, len(v1)+1, "one byte of rows remaining")
		var got replica.PagingState
		require.NoError(t, got.UnmarshalBinary(b))
		assert.Equal(t, r, got)
	}
	unlimited := replica.Query{}
	next, err := replica.NewPagingState("t", "k", unlimited, nil, "c").WithRemaining(7).Resume("t", "k", unlimited, nil)
	require.NoError(t, err)
	assert.Equal(t, 7, next.Limit, "a query without a limit gets one")
}

func TestPagingStateRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := queryGen().Draw(t, "q")
		last := rapid.String().Draw(t, "last")
		s := replica.NewPagingState(rapid.String().Draw(t, "table"), "k", q, nil, last).
			WithRemaining(rapid.IntRange(0, math.MaxInt).Draw(t, "remaining"))
		b, err := s.MarshalBinary()
		require.NoError(t, err)
		var got replica.PagingState
		require.NoError(t, got.UnmarshalBinary(b))
		assert.Equal(t, s, got)
	})
}

// FuzzPagingState decodes arbitrary bytes: either a typed error that leaves
// the state as it was, or a state that encodes to exactly those bytes.
func FuzzPagingState(f *testing.F) {
	for i, last := range []string{"", "c", "\x00\xff", string(make([]byte, 200))} {
		b, err := replica.NewPagingState("t", "k", pagedQuery, []string{"v"}, last).WithRemaining(i * 100).MarshalBinary()
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte{1, 0x80})
	f.Fuzz(func(t *testing.T, data []byte) {
		before := replica.NewPagingState("t", "k", pagedQuery, nil, "before")
		s := before
		err := s.UnmarshalBinary(data)
		if err != nil {
			require.ErrorIs(t, err, replica.ErrInvalidPagingState)
			require.Equal(t, before, s)
			return
		}
		again, err := s.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, data, again)
	})
}
