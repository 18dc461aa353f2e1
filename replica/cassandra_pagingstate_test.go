package replica_test

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Ports of Cassandra's paging state tests
// (test/unit/org/apache/cassandra/service/pager/PagingStateTest.java and
// RandomizedPagingStateTest.java). Cassandra's state carries the partition
// key, a row mark and the rows remaining; ours carries the last clustering,
// the rows a per-partition limit leaves (WithRemaining), and a fingerprint
// of the read in place of the key. testSerializationBackwardCompatibility's
// counterpart is TestPagingStatesEncodeAsBefore.

// someClustering is Util.makeSomePagingState's clustering ("c1", 42), in an
// order-preserving encoding: the text, a 0 0 terminator, then the int with
// its sign bit flipped, big-endian.
const someClustering = "c1\x00\x00\x80\x00\x00\x2a"

// testSerializeDeserializeV3 and V4: makeSomePagingState's state (key
// "someKey", the row at ("c1", 42) selecting myCol, 10 rows remaining),
// and the same without rows remaining, decode to what was encoded, and
// resume the same read after that row.
func TestCassandraPagingStateSerializeDeserialize(t *testing.T) {
	cols := []string{"myCol"}
	for _, remaining := range []int{10, 0} {
		s := replica.NewPagingState("tbl", "someKey", replica.Query{}, cols, someClustering).WithRemaining(remaining)
		b, err := s.MarshalBinary()
		require.NoError(t, err)
		var got replica.PagingState
		require.NoError(t, got.UnmarshalBinary(b))
		assert.Equal(t, s, got, "remaining %d", remaining)
		q, err := got.Resume("tbl", "someKey", replica.Query{}, cols)
		require.NoError(t, err)
		want := replica.Query{}.After(someClustering)
		want.Limit = remaining
		assert.Equal(t, want, q, "remaining %d", remaining)
	}
}

// randomBytes returns 1 to max random bytes, as checkState draws its keys.
func randomBytes(rnd *rand.Rand, max int) string {
	b := make([]byte, rnd.IntN(max)+1)
	var w [8]byte
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(w[:], rnd.Uint64())
		copy(b[i:], w[:])
	}
	return string(b)
}

// testFormatChecksPkOnly and testFormatChecksPkAndCk: Cassandra checks that
// 50,000 states of random keys up to 3,000 bytes (and random clusterings up
// to 3,000 bytes), with 1 to 5,000 rows remaining, are recognised in the
// format they were written in. Ours has one format a version, checked by
// length and checksum: each state decodes to itself, resumes its own read
// and refuses another key's with a *PagingStateError; and (every 50th
// state) the state cut short by one byte, or with one bit flipped, is
// refused with a *PagingStateError, never a panic, and changes nothing.
func TestCassandraPagingStateRandomized(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 1))
	for i := range 50_000 {
		key, last := randomBytes(rnd, 3000), ""
		if i%2 == 1 { // PkAndCk: a clustering of its own, a one-byte key
			key, last = randomBytes(rnd, 1), randomBytes(rnd, 3000)
		}
		s := replica.NewPagingState("tbl", key, replica.Query{}, nil, last).WithRemaining(rnd.IntN(5000) + 1)
		b, err := s.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, byte(2), b[0], "the layout with rows remaining")
		var got replica.PagingState
		require.NoError(t, got.UnmarshalBinary(b))
		require.Equal(t, s, got)
		_, err = got.Resume("tbl", key, replica.Query{}, nil)
		require.NoError(t, err)
		_, err = got.Resume("tbl", key+"x", replica.Query{}, nil)
		var pse *replica.PagingStateError
		require.True(t, errors.As(err, &pse), "another key: %v", err)
		if i%50 != 0 {
			continue
		}
		flipped := slices.Clone(b)
		bit := rnd.IntN(8 * len(b))
		flipped[bit/8] ^= 1 << (bit % 8)
		for _, bad := range [][]byte{b[:len(b)-1], flipped} {
			before := got
			err := got.UnmarshalBinary(bad)
			require.True(t, errors.As(err, &pse), "round %d: %v", i, err)
			require.Equal(t, before, got)
		}
	}
}
