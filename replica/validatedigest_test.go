package replica_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// digestVersions are the versions ValidateDigest is checked at: the
// newest by 0, both known ones, and two it does not know.
var digestVersions = []byte{0, digest.V1, digest.V2, digest.Latest + 1, math.MaxUint8}

// requireValidateThenDigest checks that p.ValidateDigest(v) returns what
// Validate and then DigestAt(v) return.
func requireValidateThenDigest(t require.TestingT, p replica.Partition, v byte) {
	want, wantErr := p.DigestAt(v)
	if err := p.Validate(); err != nil {
		want, wantErr = digest.Digest{}, err
	}
	got, err := p.ValidateDigest(v)
	require.Equal(t, wantErr, err, "version %d of %v", v, p)
	require.Equal(t, want, got, "version %d of %v", v, p)
}

func TestValidateDigestIsValidateThenDigestAt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.OneOf(partitionGen(), v1PartitionGen()).Draw(t, "partition")
		for _, v := range digestVersions {
			requireValidateThenDigest(t, p, v)
		}
	})
}

// Every fault Validate finds, ValidateDigest reports, as Validate words it:
// the first, in Validate's order, when there are several.
func TestValidateDigestReportsValidatesFault(t *testing.T) {
	good := func(clustering string) replica.Row {
		return replica.NewRow(clustering, replica.Live("a", "x", 1), replica.Live("b", "y", 1))
	}
	badCell := good("c")
	badCell.Cells[1].TTL = -1
	for name, p := range map[string]replica.Partition{
		"rows out of order": replica.Partition{Key: "k", Rows: []replica.Row{good("b"), good("a")}},
		"a bad cell in the third row": replica.Partition{Key: "k",
			Rows: []replica.Row{good("a"), good("b"), badCell, {Clustering: "d"}}},
		"an empty row after a bad cell": replica.Partition{Key: "k",
			Rows: []replica.Row{good("a"), badCell, {Clustering: "d"}}},
		"a static row with a clustering key, and bad rows": replica.Partition{Key: "k",
			Static: good("s"), Rows: []replica.Row{good("b"), good("a")}},
		"an inverted range tombstone": replica.Partition{Key: "k", RangeTombstones: []replica.RangeTombstone{
			replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("a"), replica.DeletedAt(1, 1))}},
		"a negative partition deletion time": replica.Partition{Key: "k", Deletion: replica.DeletedAt(1, -1)},
	} {
		t.Run(name, func(t *testing.T) {
			require.Error(t, p.Validate())
			for _, v := range digestVersions {
				requireValidateThenDigest(t, p, v)
			}
		})
	}
}

// A version that is no digest version fails as DigestAt fails, for a valid
// partition.
func TestValidateDigestOfAnUnknownVersion(t *testing.T) {
	p := replica.NewPartition("k", replica.NewRow("r", replica.Live("a", "x", 1)))
	_, err := p.ValidateDigest(digest.Latest + 1)
	var verr *digest.VersionError
	require.ErrorAs(t, err, &verr)
	assert.ErrorIs(t, err, digest.ErrUnknownVersion)
}

// Long encodings stream through the pooled encoder's hasher, whose state a
// failed validation leaves mid-encoding: the next digest must not see it.
func TestValidateDigestAfterAFailureMidEncoding(t *testing.T) {
	p := rowsOfCells(1000, 10, 8)
	bad := p.Clone()
	bad.Rows[900].Cells[3].TTL = -1
	for range 3 {
		_, err := bad.ValidateDigest(0)
		require.ErrorIs(t, err, replica.ErrInvalidPartition)
		requireValidateThenDigest(t, p, 0)
	}
}

func TestValidateDigestDoesNotAllocate(t *testing.T) {
	race.SkipPooledAllocs(t)
	for name, p := range map[string]replica.Partition{
		"empty":      {Key: "k"},
		"sample":     sample(),
		"1000 rows":  rowsOfCells(1000, 10, 8),
		"large cell": rowsOfCells(2, 4, digest.LargeField),
	} {
		for _, v := range []byte{digest.V1, digest.V2} {
			assert.Zero(t, testing.AllocsPerRun(5, func() { _, _ = p.ValidateDigest(v) }), "%s at version %d", name, v)
		}
	}
}

// FuzzValidateDigest checks ValidateDigest against Validate and DigestAt on
// partitions built from fuzz bytes, most of them invalid.
func FuzzValidateDigest(f *testing.F) {
	for _, seed := range []string{
		"", "\x01\x01\x01\x01\x01\x01", "\x02\x00\x01\x01\x02\x00\x01\x01",
		"\x01\x01\x02\x01\x00\x01\x02\x01\x01\x01\x02\x01\x00\x01\x02\x01",
		"\x00\x00\x00\x00\x00\x02\x00\x01\x01\x00\x00\x01\x00\x01\x01\x01\x01\x00\x00\x00",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{data: data}
		p := in.partition()
		for _, v := range digestVersions {
			requireValidateThenDigest(t, p, v)
		}
	})
}
