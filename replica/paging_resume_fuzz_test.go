package replica_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// FuzzPagingStateResumeNarrows resumes a query of fuzzed slices, order and
// limit with a paging state decoded from fuzzed bytes, as a client hands
// one back, or else made for that query with the bytes as its last row and
// a fuzzed number of rows remaining. A state only ever narrows the query it
// resumes: Resume fails with a typed error (the query's own only for an
// invalid query, never for a state made for a valid one) or returns a
// valid query in q's order, its limit q's lowered to the rows remaining,
// that holds exactly q's keys past the last row.
func FuzzPagingStateResumeNarrows(f *testing.F) {
	for i, last := range []string{"", "a", "ab", "b\x00", "d"} {
		q := replica.Query{Slices: fuzzSlices([]byte{1, 1, 4, 20}), Limit: i}
		b, err := replica.NewPagingState("t", "k", q, nil, last).WithRemaining(i).MarshalBinary()
		require.NoError(f, err)
		f.Add(b, []byte{1, 1, 4, 20}, uint8(i<<1))
		b, err = replica.NewPagingState("t", "k", replica.Query{Reversed: true}, nil, last).MarshalBinary()
		require.NoError(f, err)
		f.Add(b, []byte{}, uint8(1|8))
	}
	f.Add([]byte{}, []byte{}, uint8(0))
	f.Add([]byte("c"), []byte{}, uint8(3<<4)) // no limit but 3 rows remaining
	// shape: bit 0 reverses q, bits 1-2 are its limit, bit 3 drops its
	// slices, bits 4-7 are the rows remaining of a state made for it.
	f.Fuzz(func(t *testing.T, data, sliceBytes []byte, shape uint8) {
		q := replica.Query{Slices: fuzzSlices(sliceBytes), Reversed: shape&1 != 0, Limit: int(shape>>1) % 4}
		if shape&8 != 0 {
			q.Slices = nil
		}
		var s replica.PagingState
		made := s.UnmarshalBinary(data) != nil
		if made {
			s = replica.NewPagingState("t", "k", q, nil, string(data)).WithRemaining(int(shape >> 4))
		}
		next, err := s.Resume("t", "k", q, nil)
		if err != nil {
			var pe *replica.PagingStateError
			var qe *replica.QueryError
			require.True(t, errors.As(err, &pe) || errors.As(err, &qe), "untyped error %v", err)
			if qe != nil || made {
				require.Error(t, q.Validate(), "Resume of %+v: %v", q, err)
			}
			return
		}
		require.NoError(t, q.Validate())
		require.NoError(t, next.Validate(), "resumed query of %+v", q)
		require.Equal(t, q.Reversed, next.Reversed)
		limit := q.Limit
		if r := s.Remaining(); r > 0 && (limit == 0 || r < limit) {
			limit = r
		}
		require.Equal(t, limit, next.Limit, "%+v resumed with %d rows remaining", q, s.Remaining())
		last := lastRow(t, s)
		keys := append([]string{last, last + "\x00", last + "a"}, keyUniverse...)
		requireBeyond(t, q, next, last, keys)
	})
}

// lastRow is the last row s names, read from its encoding as MarshalBinary
// documents it: a version byte, then the key as a uvarint length and bytes.
func lastRow(t *testing.T, s replica.PagingState) string {
	b, err := s.MarshalBinary()
	require.NoError(t, err)
	n, size := binary.Uvarint(b[1:])
	require.Positive(t, size)
	return string(b[1+size : 1+size+int(n)])
}
