package repair

import (
	"strings"

	"github.com/readpath/readpath/replica"
)

// Diff returns what version lacks relative to merged — the repair mutation
// for the replica that answered version — and whether there is anything to
// send. The diff carries merged's partition deletion only if it supersedes
// version's; the pieces of merged's range tombstones where neither
// version's range tombstones nor its partition deletion are as strong; and,
// for the static row and each row, only what version's row lacks: the
// liveness, row deletion and complex deletions of merged that supersede
// version's, and the cells for which version's cell of the same column and
// path is absent or loses by Reconcile.
//
// For a version that was one of merged's inputs, Merge(version, diff) equals
// merged, digests included. A version that is already up to date gets an
// empty diff and false. Diff walks both partitions once. It trusts its
// arguments (ordered rows, cells and range tombstones, as Merge returns and
// Validate checks): on others it returns some partition rather than
// panicking. It does not modify its arguments and the diff shares no memory
// with them.
func Diff(merged, version replica.Partition) (replica.Partition, bool) {
	var b builder
	b.out.Key = merged.Key
	if merged.Deletion.Supersedes(version.Deletion) {
		b.out.Deletion = merged.Deletion
	}
	if !merged.Static.IsEmpty() {
		b.diffRow(&merged.Static, &version.Static)
		b.endStatic()
	}
	b.diffRanges(&merged, &version)
	var absent replica.Row
	vrows := version.Rows
	for i := range merged.Rows {
		m := &merged.Rows[i]
		for len(vrows) > 0 && vrows[0].Clustering < m.Clustering {
			vrows = vrows[1:]
		}
		v := &absent
		if len(vrows) > 0 && vrows[0].Clustering == m.Clustering {
			v = &vrows[0]
		}
		l, d := b.diffRow(m, v)
		b.endRow(m.Clustering, l, d)
	}
	return b.out, !b.out.IsEmpty()
}

// diffRow adds to the builder's current row the cells and complex deletions
// of merged row m that version row v lacks, and returns the liveness and row
// deletion it lacks.
func (b *builder) diffRow(m, v *replica.Row) (replica.Liveness, replica.Deletion) {
	if len(m.ComplexDeletions) > 0 {
		b.diffComplexDeletions(m.ComplexDeletions, v.ComplexDeletions)
	}
	b.diffCells(m.Cells, v.Cells)
	var l replica.Liveness
	if m.Liveness.Supersedes(v.Liveness) {
		l = m.Liveness
	}
	var d replica.Deletion
	if m.Deletion.Supersedes(v.Deletion) {
		d = m.Deletion
	}
	return l, d
}

// diffCells adds the cells of merged that version's cells, of the same row,
// lack: those whose column and path version has no cell for, or a losing
// one.
func (b *builder) diffCells(merged, version []replica.Cell) {
	for i := range merged {
		c := &merged[i]
		order := 1 // of version's next cell against c; 1 when it has none
		for len(version) > 0 {
			v := &version[0] // by column, then path, as in nextCell
			if order = strings.Compare(v.Column, c.Column); order == 0 && len(v.Path)|len(c.Path) != 0 {
				order = strings.Compare(v.Path, c.Path)
			}
			if order >= 0 {
				break
			}
			version = version[1:]
		}
		if order != 0 || compareCells(c, &version[0]) > 0 {
			b.addCell(c)
		}
	}
}

// diffComplexDeletions sets the builder's complex deletions to those of m
// that supersede v's deletion of the same column.
func (b *builder) diffComplexDeletions(m, v []replica.ComplexDeletion) {
	for _, cd := range m {
		if cd.Deletion.Supersedes(columnDeletion(&v, cd.Column)) {
			b.cds = append(b.cds, cd)
		}
	}
}
