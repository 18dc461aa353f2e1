package replica_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// FuzzValidPartitions builds three versions of one partition from the fuzz
// bytes, most of them invalid, and a command from the bytes left. On those
// that Validate accepts, Respond answers as its doc says, and Merge and
// Diff obey the laws of DESIGN.md 2.5: commutative, associative,
// idempotent, and a version merged with its diff is the merge.
func FuzzValidPartitions(f *testing.F) {
	for _, seed := range []string{
		"", "\x01\x01\x01\x01\x01\x01",
		"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x01\x01\x00\x00\x01\x01\x00",
		"\x02\x00\x01\x01\x02\x00\x01\x01\x01\x01\x02\x01\x00\x01\x02\x01\x01\x01\x02\x01",
		// Three valid versions with four rows between them, found by a search.
		"\x02\x05\x01\x01\x02\x03\x00\x00\x05\x01\x01\x01\x05\x04\x04\x03\x04\x04\x05\x02\x02\x04\x05\x05\x03\x04\x00" +
			"\x02\x00\x05\x02\x00\x02\x01\x00\x05\x00\x00\x05\x05\x04\x00\x01\x05\x00\x04\x03\x00\x03\x03\x05\x02\x03\x03" +
			"\x00\x00\x00\x02\x00\x04\x02\x02\x03\x03\x05\x03\x02\x03\x03\x01\x03\x00\x03\x03\x02\x05\x01\x03\x01\x05\x01",
	} {
		f.Add([]byte(seed), []byte{1, 1, 3, 5}, uint16(0))
		f.Add([]byte(seed), []byte{}, uint16(0xffff))
	}
	f.Fuzz(func(t *testing.T, data, sliceBytes []byte, shape uint16) {
		in := &fuzzInput{data: data}
		vs := []replica.Partition{in.partition(), in.partition(), in.partition()}
		cmd := fuzzCommand(sliceBytes, shape)
		var valid []replica.Partition
		for _, v := range vs {
			v.Key = "k"
			if v.Validate() == nil {
				requireResponds(t, cmd, v)
				valid = append(valid, v)
			}
		}
		if len(valid) > 0 {
			requireMergeLaws(t, valid)
		}
	})
}

// fuzzCommand is a command for key k from the slices of sliceBytes and the
// order, limit, columns, read time, digest version and threshold of shape.
func fuzzCommand(sliceBytes []byte, shape uint16) replica.Command {
	q := replica.Query{Slices: fuzzSlices(sliceBytes), Reversed: shape&1 != 0, Limit: int(shape>>1) % 4}
	if shape&8 != 0 {
		q.Slices = nil
	}
	cmd := replica.Command{Table: "t", Key: "k", Query: q, NowInSec: int64(shape>>4) % 4,
		DigestVersion: byte(shape>>6) % 3, TombstoneFailureThreshold: int(shape>>8) % 3}
	cmd.GCBefore = cmd.NowInSec - int64(shape>>10)%3
	if shape&(1<<12) != 0 {
		cmd.Columns = []string{"b"}
	}
	return cmd
}

// requireResponds checks Respond on the valid partition p: it refuses an
// invalid command, leaves p as it was, and answers a valid one with a
// valid partition of the query whose digest is the digest-only answer.
func requireResponds(t *testing.T, cmd replica.Command, p replica.Partition) {
	t.Helper()
	before := p.Clone()
	data, err := cmd.Respond(p)
	require.True(t, before.Equal(p), "Respond modified its partition")
	if cerr := cmd.Validate(); cerr != nil {
		require.ErrorIs(t, err, replica.ErrInvalidCommand)
		return
	}
	var over *replica.TombstoneOverwhelmingError
	if errors.As(err, &over) {
		require.Greater(t, over.Tombstones, cmd.TombstoneFailureThreshold)
		return
	}
	require.NoError(t, err)
	require.NoError(t, data.Partition.Validate(), "answer to %+v", cmd)
	for _, r := range data.Partition.Rows {
		require.True(t, cmd.Query.Contains(r.Clustering), "row %q outside %+v", r.Clustering, cmd.Query)
	}
	if n := data.Partition.LiveRows(cmd.Query, cmd.NowInSec); cmd.Query.Limit > 0 {
		require.LessOrEqual(t, n, cmd.Query.Limit, "live rows in the answer to %+v", cmd)
	}
	cmd.DigestOnly = true
	dig, err := cmd.Respond(p)
	require.NoError(t, err)
	want, err := data.Partition.DigestAt(cmd.DigestVersion)
	require.NoError(t, err)
	require.Equal(t, want, dig.Digest)
	require.Equal(t, data.Tombstones, dig.Tombstones)
}

// requireMergeLaws checks Merge's laws and Diff's convergence on valid
// versions of one key.
func requireMergeLaws(t *testing.T, vs []replica.Partition) {
	t.Helper()
	m := mergeOf(t, vs...)
	require.True(t, m.Equal(mergeOf(t, m)), "Merge(m) != m")
	require.True(t, m.Equal(mergeOf(t, m, m)), "Merge(m, m) != m")
	a, b, c := vs[0], vs[len(vs)/2], vs[len(vs)-1]
	require.True(t, mergeOf(t, a, b).Equal(mergeOf(t, b, a)), "not commutative")
	require.True(t, mergeOf(t, mergeOf(t, a, b), c).Equal(mergeOf(t, a, mergeOf(t, b, c))), "not associative")
	require.True(t, mergeOf(t, a, a).Equal(mergeOf(t, a)), "not idempotent")
	for _, v := range vs {
		d, _ := repair.Diff(m, v)
		repaired := mergeOf(t, v, d)
		require.True(t, m.Equal(repaired), "version %v repaired by %v: %v, want %v", v, d, repaired, m)
		for _, ver := range []byte{digest.V1, digest.V2} {
			got, _ := repaired.DigestAt(ver)
			want, _ := m.DigestAt(ver)
			require.Equal(t, want, got, "digest at version %d after repair", ver)
		}
	}
}

func mergeOf(t *testing.T, vs ...replica.Partition) replica.Partition {
	t.Helper()
	m, err := repair.Merge(vs...)
	require.NoError(t, err)
	return m
}
