package repair_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Diff's doc says the diff shares no memory with its arguments: writing
// every value byte, cell, range tombstone and complex deletion of a diff
// changes neither the merge nor the version it was taken against.
func TestDiffSharesNoMemoryWithItsArguments(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		merged := merge(t, vs...)
		for _, v := range append(vs, replica.Partition{Key: merged.Key}) {
			keptMerge, keptVersion := merged.Clone(), v.Clone()
			d, _ := repair.Diff(merged, v)
			overwrite(d)
			requireEqual(t, "merge after writing to its diff", keptMerge, merged)
			requireEqual(t, "version after writing to its diff", keptVersion, v)
		}
	})
}

// overwrite changes every element of p that a shared slice would expose.
func overwrite(p replica.Partition) {
	scribble(p)
	for i := range p.RangeTombstones {
		p.RangeTombstones[i].Deletion.MarkedForDeleteAt++
	}
	rows := append([]replica.Row{p.Static}, p.Rows...)
	for _, r := range rows {
		for i := range r.Cells {
			r.Cells[i].Timestamp++
		}
		for i := range r.ComplexDeletions {
			r.ComplexDeletions[i].Deletion.MarkedForDeleteAt++
		}
	}
}
