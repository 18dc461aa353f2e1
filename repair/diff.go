package repair

import (
	"strings"

	"github.com/readpath/readpath/replica"
)

// Diff returns what version lacks relative to merged — the repair mutation
// for the replica that answered version — and whether there is anything to
// send. The diff carries merged's partition deletion only if it supersedes
// version's, a row only where version lacks something in it, a row deletion
// only where it supersedes version's, and a cell only where version's cell
// for that column is absent or loses to it by Reconcile.
//
// For a version that was one of merged's inputs, Merge(version, diff) equals
// merged. A version that is already up to date gets an empty diff and false.
// Diff walks both partitions once. It trusts its arguments (ordered rows and
// cells, as Merge returns and Validate checks): on others it returns some
// partition rather than panicking. It does not modify its arguments and the
// diff shares no memory with them.
func Diff(merged, version replica.Partition) (replica.Partition, bool) {
	var b builder
	b.out.Key = merged.Key
	if merged.Deletion.Supersedes(version.Deletion) {
		b.out.Deletion = merged.Deletion
	}
	var absent replica.Row
	vrows := version.Rows
	for i := range merged.Rows {
		m := &merged.Rows[i]
		for len(vrows) > 0 && vrows[0].Clustering < m.Clustering {
			vrows = vrows[1:]
		}
		if len(vrows) > 0 && vrows[0].Clustering == m.Clustering {
			b.diffRow(m, &vrows[0])
		} else {
			b.diffRow(m, &absent)
		}
	}
	return b.out, !b.out.IsEmpty()
}

// diffRow adds the part of merged row m that version row v lacks.
func (b *builder) diffRow(m, v *replica.Row) {
	vcells := v.Cells
	for i := range m.Cells {
		c := &m.Cells[i]
		order := 1 // of version's next column against c's; 1 when it has none
		for len(vcells) > 0 {
			if order = strings.Compare(vcells[0].Column, c.Column); order >= 0 {
				break
			}
			vcells = vcells[1:]
		}
		if order != 0 || compareCells(c, &vcells[0]) > 0 {
			b.addCell(*c)
		}
	}
	var d replica.Deletion
	if m.Deletion.Supersedes(v.Deletion) {
		d = m.Deletion
	}
	b.endRow(m.Clustering, d)
}
