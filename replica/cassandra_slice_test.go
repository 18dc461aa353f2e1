package replica_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Port of Cassandra's SliceTest.testSliceNormalization (apache/cassandra,
// test/unit/org/apache/cassandra/db/filter/SliceTest.java): a clustering of
// three ints, each slice s(a, b) from the inclusive start bound of the
// one-component prefix (a) to the inclusive end bound of (b), normalised by
// Slices.Builder. An int is encoded big-endian with its sign bit flipped, so
// that byte order is its order and the encoding is fixed-width.
func TestCassandraSliceTestSliceNormalization(t *testing.T) {
	enc := func(v int32) string {
		return string(binary.BigEndian.AppendUint32(nil, uint32(v)^(1<<31)))
	}
	s := func(a, b int32) replica.Slice {
		return replica.Slice{Start: replica.StartAt(enc(a)), End: replica.PrefixEnd(enc(b))}
	}
	for i, tc := range []struct{ in, want []replica.Slice }{
		{[]replica.Slice{s(0, 2), s(2, 4)}, []replica.Slice{s(0, 4)}},
		{[]replica.Slice{s(0, 2), s(1, 4)}, []replica.Slice{s(0, 4)}},
		{[]replica.Slice{s(0, 2), s(3, 4), s(3, 4)}, []replica.Slice{s(0, 2), s(3, 4)}},
		{[]replica.Slice{s(-1, 3), s(-1, 4)}, []replica.Slice{s(-1, 4)}},
		{[]replica.Slice{s(-1, 2), s(-1, 3), s(5, 9)}, []replica.Slice{s(-1, 3), s(5, 9)}},
	} {
		got, err := replica.NormalizeSlices(tc.in)
		require.NoError(t, err, i)
		// Cassandra keeps s(0, 2) and s(3, 4) apart, where readpath joins
		// them: over byte strings no clustering key lies between the end of
		// prefix (2) and the start of (3). Both select the same rows, which
		// is what is checked, key by key, besides the ends of the result.
		for a := int32(-3); a <= 10; a++ {
			for b := int32(-1); b <= 1; b++ {
				k := enc(a) + enc(b) + enc(b)
				want := false
				for _, w := range tc.want {
					want = want || w.Contains(k)
				}
				q := replica.Query{Slices: got}
				assert.Equal(t, want, q.Contains(k), "%d: (%d, %d, %d) in %v", i, a, b, b, got)
			}
		}
		assert.Zero(t, got[0].Start.Compare(tc.want[0].Start), "%d: %v", i, got)
		assert.Zero(t, got[len(got)-1].End.Compare(tc.want[len(tc.want)-1].End), "%d: %v", i, got)
	}
}
