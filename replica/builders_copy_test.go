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
