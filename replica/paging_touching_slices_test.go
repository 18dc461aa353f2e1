package replica_test

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// A paging state resumes any query that selects the same rows in the same
// form once touching slices are joined (as NormalizeSlices joins them):
// [a, m) and [m, z) read what [a, z) reads, and ["a", "m"] and ("m", z)
// too, so a caller that rewrites its query between pages into an
// equivalent one continues it. The fingerprint hashed the slices as
// written, and such a state was refused as made for another query.
func TestPagingStateResumesAcrossTouchingSlices(t *testing.T) {
	joined := []replica.Slice{slice(replica.StartAt("a"), replica.EndBefore("z"))}
	forms := map[string][]replica.Slice{
		"joined":                 joined,
		"split at m":             {slice(replica.StartAt("a"), replica.EndBefore("m")), slice(replica.StartAt("m"), replica.EndBefore("z"))},
		"split after m":          {slice(replica.StartAt("a"), replica.EndAt("m")), slice(replica.StartAfter("m"), replica.EndBefore("z"))},
		"split twice":            {slice(replica.StartAt("a"), replica.EndBefore("f")), slice(replica.StartAt("f"), replica.EndAt("m")), slice(replica.StartAfter("m"), replica.EndBefore("z"))},
		"split at a zero byte":   {slice(replica.StartAt("a"), replica.EndAt("m")), slice(replica.StartAt("m\x00"), replica.EndBefore("z"))},
		"split before the start": {slice(replica.StartAt("a"), replica.EndAt("a")), slice(replica.StartAfter("a"), replica.EndBefore("z"))},
	}
	for _, reversed := range []bool{false, true} {
		for made, from := range forms {
			q := replica.Query{Slices: from, Reversed: reversed, Limit: 3}
			s := replica.NewPagingState("t", "k", q, nil, "g")
			for resumed, to := range forms {
				r := replica.Query{Slices: to, Reversed: reversed, Limit: 3}
				next, err := s.Resume("t", "k", r, nil)
				require.NoError(t, err, "made by %s, resumed by %s, reversed %v", made, resumed, reversed)
				assert.Equal(t, r.After("g"), next)
			}
		}
	}
	// Slices that do not touch select other rows.
	s := replica.NewPagingState("t", "k", replica.Query{Slices: joined}, nil, "g")
	gap := []replica.Slice{slice(replica.StartAt("a"), replica.EndBefore("m")), slice(replica.StartAfter("m"), replica.EndBefore("z"))}
	_, err := s.Resume("t", "k", replica.Query{Slices: gap}, nil)
	assert.ErrorIs(t, err, replica.ErrInvalidPagingState, "a gap at m")
}

// States made before fingerprints joined touching slices still resume the
// query text that made them (hex of MarshalBinary at commit de3e884, of
// [a, m) and [m, z), limit 3, after g; the second with 5 rows remaining).
func TestPagingStateOfTouchingSlicesMadeBeforeStillResumes(t *testing.T) {
	split := replica.Query{Slices: []replica.Slice{slice(replica.StartAt("a"), replica.EndBefore("m")), slice(replica.StartAt("m"), replica.EndBefore("z"))}, Limit: 3}
	for _, h := range []string{"010167d5f5aa10775c60bbb0d47926", "02016705d5f5aa10775c60bb16678dd6"} {
		b, err := hex.DecodeString(h)
		require.NoError(t, err)
		var s replica.PagingState
		require.NoError(t, s.UnmarshalBinary(b))
		next, err := s.Resume("t", "k", split, nil)
		require.NoError(t, err, h)
		assert.Equal(t, split.After("g").Slices, next.Slices)
		_, err = s.Resume("t", "k", replica.Query{Slices: split.Slices, Limit: 4}, nil)
		assert.ErrorIs(t, err, replica.ErrInvalidPagingState, "another limit")
	}
}
