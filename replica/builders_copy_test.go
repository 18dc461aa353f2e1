package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
)

// The builders sort copies of the lists they are given: the caller's lists
// keep their order, and writing to them changes no partition.
func TestBuildersSortCopiesOfTheCallersLists(t *testing.T) {
	cells := []replica.Cell{replica.Live("b", "1", 1), replica.Live("a", "2", 1)}
	rows := []replica.Row{replica.NewRow("y", cells...), replica.NewRow("x", cells...)}
	rts := []replica.RangeTombstone{
		replica.NewRangeTombstone(replica.StartAt("m"), replica.Top(), replica.DeletedAt(1, 1)),
		replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore("c"), replica.DeletedAt(1, 1)),
	}
	p := replica.NewPartition("k", rows...).WithStatic(cells...).WithRangeTombstones(rts...)
	want := p.Clone()

	assert.Equal(t, "b", cells[0].Column, "NewRow and WithStatic sorted the caller's cells")
	assert.Equal(t, "y", rows[0].Clustering, "NewPartition sorted the caller's rows")
	assert.Equal(t, replica.StartAt("m"), rts[0].Start, "WithRangeTombstones sorted the caller's list")
	cells[0], rows[0], rts[0] = replica.Live("z", "9", 9), replica.NewRow("z"), rts[1]
	assert.True(t, want.Equal(p), "the partition changed with the caller's lists")
}

// The zero Deletion means "not deleted" (Row.WithDeletion and
// Partition.WithDeletion take it so): setting a column's complex deletion
// to it leaves the column without one, as Cassandra's ComplexColumnData
// holds DeletionTime.LIVE, rather than a complex deletion that deletes
// nothing, which Validate refuses and which compared and digested unlike
// the same row without it.
func TestWithComplexDeletionOfTheZeroDeletionLeavesNone(t *testing.T) {
	r := replica.NewRow("r", replica.Live("m", "", 1).WithPath("x"))
	for name, got := range map[string]replica.Row{
		"never deleted":     r.WithComplexDeletion("m", replica.Deletion{}),
		"deleted, then not": r.WithComplexDeletion("m", replica.DeletedAt(1, 1)).WithComplexDeletion("m", replica.Deletion{}),
	} {
		p, want := replica.NewPartition("k", got), replica.NewPartition("k", r)
		assert.NoError(t, p.Validate(), name)
		assert.True(t, p.Equal(want), "%s: %v", name, p)
		assert.Equal(t, want.Digest(), p.Digest(), name)
	}
	kept := r.WithComplexDeletion("a", replica.DeletedAt(2, 2)).WithComplexDeletion("m", replica.DeletedAt(1, 1)).
		WithComplexDeletion("m", replica.Deletion{})
	assert.Equal(t, []replica.ComplexDeletion{{Column: "a", Deletion: replica.DeletedAt(2, 2)}}, kept.ComplexDeletions)
}
