package replicatest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// expiring holds a cell that expires at 100, a tombstone made at 50 and,
// older, a collection's deletion made at 40: a gcBefore past 40 purges
// that one alone, which the stored digest must not hide.
func expiring() replica.Partition {
	return replica.NewPartition("k",
		replica.NewRow("q", replica.Live("tags", "", 4).WithPath("x")).WithComplexDeletion("tags", replica.DeletedAt(3, 40)),
		replica.NewRow("r",
			replica.Live("a", "v", 1), replica.Expiring("b", "soon", 2, 10, 100), replica.Tombstone("c", 3, 50)))
}

// A replica answers at the command's read time, data and digest alike, and
// its stored digest, computed once per write, is used only while it is
// what Respond answers.
func TestReadAnswersAtTheReadTime(t *testing.T) {
	r := newReplica(t)
	p := expiring()
	require.NoError(t, r.Seed(table, p))
	for _, at := range [][2]int64{{0, 0}, {99, 49}, {99, 50}, {99, 51}, {100, 0}, {150, 95}, {1000, 1000}} {
		for _, version := range []byte{0, digest.V1, digest.V2} {
			cmd := replica.Command{Table: table, Key: "k", NowInSec: at[0], GCBefore: at[1], DigestVersion: version}
			want, err := cmd.Respond(p)
			require.NoError(t, err)
			assert.True(t, read(t, r, cmd).Partition.Equal(want.Partition), "data at %v", at)
			cmd.DigestOnly = true
			want, _ = cmd.Respond(p)
			assert.Equal(t, want.Digest, read(t, r, cmd).Digest, "digest at %v, version %d", at, version)
		}
	}
	cmd := replica.Command{Table: table, Key: "k", NowInSec: 100, GCBefore: 51}
	assert.True(t, read(t, r, cmd).Partition.Equal(replica.NewPartition("k",
		replica.NewRow("q", replica.Live("tags", "", 4).WithPath("x")),
		replica.NewRow("r", replica.Live("a", "v", 1), replica.Tombstone("b", 2, 90)))), "the expired cell is a tombstone, the old ones gone")
}

func TestReadRefusesAnInvalidCommand(t *testing.T) {
	r := newReplica(t)
	require.NoError(t, r.Seed(table, expiring()))
	for _, cmd := range []replica.Command{
		{Table: table, Key: "k", NowInSec: 10, GCBefore: 11},
		{Table: table, Key: "k", DigestOnly: true, DigestVersion: digest.Latest + 1},
	} {
		_, err := r.Read(t.Context(), cmd)
		require.ErrorIs(t, err, replica.ErrInvalidCommand, "%+v", cmd)
		var re *replicatest.RequestError
		require.ErrorAs(t, err, &re)
		assert.Equal(t, "read", re.Op)
	}
	_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k", DigestOnly: true, DigestVersion: digest.Latest + 1})
	assert.ErrorIs(t, err, digest.ErrUnknownVersion)
	assert.Equal(t, int64(3), r.Stats().Errors)
}

// A replica of an older build knows fewer digest versions: asked for the
// newest, or for one it does not know, it answers at its own newest.
func TestWithMaxDigestVersion(t *testing.T) {
	old := newReplica(t, replicatest.WithMaxDigestVersion(digest.V1))
	assert.Equal(t, digest.V1, old.MaxDigestVersion())
	assert.Equal(t, digest.Latest, newReplica(t).MaxDigestVersion())
	assert.Equal(t, digest.V1, replica.DigestVersionFor(old, newReplica(t)))

	p := replica.NewPartition("k", replica.NewRow("r", replica.Live("a", "v", 1))).WithStatic(replica.Live("s", "v", 1))
	require.NoError(t, old.Seed(table, p))
	v1, _ := p.DigestAt(digest.V1)
	for _, version := range []byte{0, digest.V1} {
		got := read(t, old, replica.Command{Table: table, Key: "k", DigestOnly: true, DigestVersion: version})
		assert.Equal(t, v1, got.Digest, "asked for version %d", version)
	}
	for _, version := range []byte{digest.V2, digest.Latest + 1} { // a version it predates: refused
		_, err := old.Read(context.Background(), replica.Command{Table: table, Key: "k", DigestOnly: true, DigestVersion: version})
		var ve *digest.VersionError
		require.ErrorAs(t, err, &ve, "asked for version %d", version)
		assert.Equal(t, digest.V1, ve.Known)
		assert.ErrorIs(t, err, digest.ErrUnknownVersion)
		assert.ErrorIs(t, err, replica.ErrInvalidCommand)
	}
	assert.True(t, read(t, old, replica.Command{Table: table, Key: "k"}).Partition.Equal(p), "data reads are as ever")

	for _, v := range []byte{0, digest.Latest + 1} {
		_, err := replicatest.New(ep, replicatest.WithMaxDigestVersion(v))
		assert.ErrorIs(t, err, replicatest.ErrInvalidConfig, "version %d", v)
	}
}

// A digest read answers the tombstones its scan met, and its stored answer
// stands in only while the read time changes nothing of it: neither an
// expired cell nor an expired liveness, which counts as a tombstone before
// it is purged.
func TestDigestReadsCountTombstonesAtTheReadTime(t *testing.T) {
	r := newReplica(t)
	p := replica.NewPartition("k",
		replica.NewRow("r", replica.Live("a", "v", 1), replica.Expiring("b", "soon", 2, 10, 100), replica.Tombstone("c", 3, 50)),
		replica.NewRow("s").WithLiveness(replica.InsertedWithTTL(1, 10, 80)),
	)
	require.NoError(t, r.Seed(table, p))
	for _, at := range [][2]int64{{0, 0}, {79, 49}, {80, 49}, {99, 49}, {100, 49}, {100, 81}} {
		for _, threshold := range []int{0, 1, 2, 3} {
			cmd := replica.Command{Table: table, Key: "k", NowInSec: at[0], GCBefore: at[1], DigestOnly: true, TombstoneFailureThreshold: threshold}
			want, wantErr := cmd.Respond(p)
			got, err := r.Read(t.Context(), cmd)
			if wantErr != nil {
				assert.ErrorIs(t, err, replica.ErrTombstoneOverwhelming, "at %v, threshold %d", at, threshold)
				continue
			}
			require.NoError(t, err, "at %v, threshold %d", at, threshold)
			assert.Equal(t, want, got, "at %v, threshold %d", at, threshold)
		}
	}
	slice := replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("s"), End: replica.Top()}}}
	cmd := replica.Command{Table: table, Key: "k", DigestOnly: true, Query: slice}
	want, _ := cmd.Respond(p)
	assert.Equal(t, want, read(t, r, cmd), "a slice is not the whole partition")
}
