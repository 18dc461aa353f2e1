package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A replica that still holds data a newer deletion covers answers as one
// that compacted it away: the same data answer, digest and tombstone count,
// as Cassandra's replicas reconcile their memtables and sstables as they
// read. Otherwise the two would disagree on every digest read of the
// partition until compaction, and each such read would pay for a data
// round that repairs nothing.
func TestCoveredDataIsNotAnswered(t *testing.T) {
	stored := replica.Partition{Key: "k",
		Deletion: replica.Deletion{MarkedForDeleteAt: 3, LocalDeletionTime: 100},
		Static:   replica.Row{Cells: []replica.Cell{{Column: "s", Value: []byte("old"), Timestamp: 2}}},
		RangeTombstones: []replica.RangeTombstone{
			{Start: replica.StartAt("a"), End: replica.EndAt("b"), Deletion: replica.Deletion{MarkedForDeleteAt: 2, LocalDeletionTime: 90}},
			{Start: replica.StartAt("c"), End: replica.EndAt("d"), Deletion: replica.Deletion{MarkedForDeleteAt: 8, LocalDeletionTime: 110}},
		},
		Rows: []replica.Row{
			{Clustering: "c", Liveness: replica.Inserted(7), Cells: []replica.Cell{
				{Column: "v", Value: []byte("under the range"), Timestamp: 7},
				{Column: "w", Value: []byte("after it"), Timestamp: 9}}},
			{Clustering: "e", Deletion: replica.Deletion{MarkedForDeleteAt: 10, LocalDeletionTime: 120}, Cells: []replica.Cell{
				{Column: "v", Value: []byte("under the row deletion"), Timestamp: 5}}},
			{Clustering: "f", Liveness: replica.Inserted(6),
				ComplexDeletions: []replica.ComplexDeletion{{Column: "m", Deletion: replica.Deletion{MarkedForDeleteAt: 6, LocalDeletionTime: 105}}},
				Cells: []replica.Cell{
					{Column: "m", Path: "x", Value: []byte("under the collection's deletion"), Timestamp: 4},
					{Column: "m", Path: "y", Value: []byte("after it"), Timestamp: 7}}},
		},
	}
	require.NoError(t, stored.Validate())
	compacted, err := repair.Merge(stored)
	require.NoError(t, err)
	require.False(t, compacted.Equal(stored), "the example holds covered data")

	cmd := replica.Command{Table: "t", Key: "k", NowInSec: 200}
	got, err := cmd.Respond(stored)
	require.NoError(t, err)
	want, err := cmd.Respond(compacted)
	require.NoError(t, err)
	if !got.Partition.Equal(want.Partition) {
		t.Fatalf("answer\n got  %v\n want %v", got.Partition, want.Partition)
	}
	cmd.DigestOnly = true
	gotDigest, _ := cmd.Respond(stored)
	wantDigest, _ := cmd.Respond(compacted)
	assert.Equal(t, wantDigest.Digest, gotDigest.Digest)
}

// For any partition and command, Respond answers a partition as it
// answers its reconciliation, repair.Merge of it alone: the same data, the
// same digest and the same tombstones. So a replica that stores writes as
// they came (covered data, range tombstones as written) and one that
// stores what Merge returns agree on every read.
func TestRespondAnswersTheReconciledPartition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := queryPartitionGen().Draw(t, "p")
		if rapid.Bool().Draw(t, "zero-byte keys") {
			p = widePartition(t)
		}
		cmd := commandGen(t, p)
		if rapid.Bool().Draw(t, "zero-byte slices") {
			cmd.Query = wideQuery(t)
		}
		compacted, err := repair.Merge(p)
		require.NoError(t, err)
		got, gotErr := cmd.Respond(p)
		want, wantErr := cmd.Respond(compacted)
		require.Equal(t, wantErr, gotErr)
		if gotErr != nil {
			return
		}
		assert.Equal(t, want.Tombstones, got.Tombstones, "tombstones")
		if !got.Partition.Equal(want.Partition) {
			t.Fatalf("answer to %+v\n got  %v\n want %v", cmd.Query, got.Partition, want.Partition)
		}
		cmd.DigestOnly = true
		gotDigest, _ := cmd.Respond(p)
		wantDigest, _ := cmd.Respond(compacted)
		assert.Equal(t, wantDigest.Digest, gotDigest.Digest, "digest")
	})
}

// Range tombstones written differently but deleting the same rows answer
// and digest alike: a start at the empty key and Bottom, a range and its
// two touching halves of one deletion.
func TestRangeTombstonesAnswerInCanonicalForm(t *testing.T) {
	d := replica.Deletion{MarkedForDeleteAt: 5, LocalDeletionTime: 50}
	written := replica.Partition{Key: "k", RangeTombstones: []replica.RangeTombstone{
		{Start: replica.StartAt(""), End: replica.EndAt("b"), Deletion: d},
		{Start: replica.StartAfter("b"), End: replica.EndBefore("d\x00"), Deletion: d},
	}}
	canonical := replica.Partition{Key: "k", RangeTombstones: []replica.RangeTombstone{
		{Start: replica.Bottom(), End: replica.EndAt("d"), Deletion: d},
	}}
	require.NoError(t, written.Validate())
	cmd := replica.Command{Table: "t", Key: "k", NowInSec: 100}
	got, err := cmd.Respond(written)
	require.NoError(t, err)
	if !got.Partition.Equal(canonical) {
		t.Fatalf("answer %v, want %v", got.Partition, canonical)
	}
	cmd.DigestOnly = true
	a, _ := cmd.Respond(written)
	b, _ := cmd.Respond(canonical)
	assert.Equal(t, b.Digest, a.Digest)
	assert.Equal(t, b.Tombstones, a.Tombstones)
}
