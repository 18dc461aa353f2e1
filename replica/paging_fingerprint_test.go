package replica_test

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// referenceFingerprint is the fingerprint as it was first written: the
// whole encoding appended to one byte slice, then hashed; with touching
// slices joined first, as fingerprints join them now.
func referenceFingerprint(table, key string, q replica.Query, columns []string) uint64 {
	var joined []replica.Slice
	for _, s := range q.Slices {
		if n := len(joined); n > 0 && joined[n-1].End.Compare(s.Start) == 0 {
			joined[n-1].End = s.End
			continue
		}
		joined = append(joined, s)
	}
	if q.Slices != nil {
		q.Slices = append([]replica.Slice{}, joined...)
	}
	str := func(b []byte, s string) []byte { return append(binary.AppendUvarint(b, uint64(len(s))), s...) }
	bound := func(b []byte, bd replica.Bound) []byte { return str(append(b, byte(bd.Kind)), bd.Clustering) }
	b := str(str([]byte("readpath paging state"), table), key)
	sl := q.Slices
	if sl == nil {
		sl = []replica.Slice{replica.AllRows()}
	}
	b = binary.AppendUvarint(b, uint64(len(sl)))
	for _, s := range sl {
		b = bound(bound(b, s.Start.AsStart()), s.End.AsEnd())
	}
	reversed := byte(0)
	if q.Reversed {
		reversed = 1
	}
	b = binary.AppendUvarint(append(b, reversed), uint64(q.Limit))
	if columns == nil {
		return xxh3.Hash(append(b, 0))
	}
	set := slices.Compact(slices.Sorted(slices.Values(columns)))
	b = binary.AppendUvarint(append(b, 1), uint64(len(set)))
	for _, c := range set {
		b = str(b, c)
	}
	return xxh3.Hash(b)
}

// stateFingerprint is the fingerprint field of s's encoding: the 8 bytes
// before its checksum.
func stateFingerprint(t require.TestingT, s replica.PagingState) uint64 {
	b, err := s.MarshalBinary()
	require.NoError(t, err)
	return binary.BigEndian.Uint64(b[len(b)-12 : len(b)-4])
}

// The fingerprint streamed into its hasher is the one hashed from the
// whole encoding, for names, keys and column sets of any length (across
// the stream's buffer and xxh3's blocks), any number of slices, nil and
// empty lists.
func TestPagingFingerprintMatchesReference(t *testing.T) {
	text := rapid.OneOf(rapid.StringN(0, 8, -1), rapid.StringN(200, 1500, -1))
	rapid.Check(t, func(t *rapid.T) {
		table, key := text.Draw(t, "table"), text.Draw(t, "key")
		var q replica.Query
		if !rapid.Bool().Draw(t, "every row") {
			q.Slices = make([]replica.Slice, rapid.IntRange(0, 80).Draw(t, "slices"))
			for i := range q.Slices {
				q.Slices[i] = replica.Slice{Start: boundGen().Draw(t, "start"), End: boundGen().Draw(t, "end")}
			}
			if rapid.Bool().Draw(t, "a long key") && len(q.Slices) > 0 {
				q.Slices[0].Start = replica.StartAt(text.Draw(t, "long"))
			}
		}
		q.Reversed = rapid.Bool().Draw(t, "reversed")
		q.Limit = rapid.IntRange(0, math.MaxInt).Draw(t, "limit")
		var columns []string
		if !rapid.Bool().Draw(t, "every column") {
			columns = rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom([]string{"a", "b", "v", ""}), text), 0, 24).Draw(t, "columns")
		}
		s := replica.NewPagingState(table, key, q, columns, "last")
		if stateFingerprint(t, s) != referenceFingerprint(table, key, q, columns) {
			t.Fatalf("fingerprint differs from the reference's")
		}
	})
}

var sinkState replica.PagingState

// Making a paging state hashes its read's query without building the
// encoding: an IN of 1,000 values with three columns allocates nothing
// (building it grew a buffer of the whole list: 20 objects, 62 KB, twice
// a page when paging it), nor do names longer than the stream's buffer.
func TestAPagingStateOfAnINAllocatesNothing(t *testing.T) {
	q := replica.Query{Slices: pointIN(1000), Limit: 100}
	columns := []string{"w", "v", "w"}
	allocs := testing.AllocsPerRun(100, func() { sinkState = replica.NewPagingState("t", "k", q, columns, "c0500") })
	assert.Equal(t, 0.0, allocs)
	long := strings.Repeat("c", 5000)
	allocs = testing.AllocsPerRun(100, func() { sinkState = replica.NewPagingState(long, long, q, nil, "c0500") })
	assert.Equal(t, 0.0, allocs, "names longer than the stream's buffer")
}
