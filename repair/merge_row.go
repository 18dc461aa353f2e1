package repair

import "github.com/readpath/readpath/replica"

// mergeRow merges the rows in group, under the deletion active that covers
// them (the partition deletion or a range tombstone), into the builder's
// current row: its cells and complex deletions go to the builder, and the
// row deletion and liveness that survive to m.rowDel and m.liveness. When
// diffing, each version's lack notes the cells and complex deletions it
// lacks.
func (m *merger) mergeRow(active replica.Deletion) {
	active = m.mergeHead(active)
	cds := m.mergeComplexDeletions(active)
	for c := m.nextCell(); c != nil; c = m.nextCell() {
		del := active
		if len(cds) > 0 { // rare: spare the common case the lookup
			del = strongest(active, columnDeletion(&cds, c.Column))
		}
		if !del.Deletes(c.Timestamp) {
			m.b.addCell(c)
			if len(m.lacks) > 0 {
				m.noteCell()
			}
		}
	}
}

// mergeHead sets m.rowDel and m.liveness to the strongest of group's that
// survive active, and returns what covers the row's cells.
func (m *merger) mergeHead(active replica.Deletion) replica.Deletion {
	m.rowDel, m.liveness = replica.Deletion{}, replica.Liveness{}
	for i := range m.group {
		r := m.group[i].row
		if r.Deletion.Supersedes(m.rowDel) {
			m.rowDel = r.Deletion
		}
		if r.Liveness.Supersedes(m.liveness) {
			m.liveness = r.Liveness
		}
	}
	if m.rowDel.Supersedes(active) {
		active = m.rowDel
	} else {
		m.rowDel = replica.Deletion{} // shadowed by what covers the row
	}
	if active.Deletes(m.liveness.Timestamp) {
		m.liveness = replica.Liveness{}
	}
	return active
}

// mergeComplexDeletions sets the builder's complex deletions to the
// strongest of each column in group that supersedes active, and returns
// them.
func (m *merger) mergeComplexDeletions(active replica.Deletion) []replica.ComplexDeletion {
	var out []replica.ComplexDeletion
	for i := range m.group {
		for _, cd := range m.group[i].row.ComplexDeletions {
			if cd.Deletion.Supersedes(active) {
				out = addComplexDeletion(out, cd)
			}
		}
	}
	m.b.cds = out
	if len(out) > 0 && len(m.lacks) > 0 {
		m.noteComplexDeletions(out)
	}
	return out
}

// addComplexDeletion merges cd into cds, ordered by column, keeping the
// strongest deletion of each column.
func addComplexDeletion(cds []replica.ComplexDeletion, cd replica.ComplexDeletion) []replica.ComplexDeletion {
	i := 0
	for i < len(cds) && cds[i].Column < cd.Column {
		i++
	}
	switch {
	case i == len(cds) || cds[i].Column != cd.Column:
		cds = append(cds, replica.ComplexDeletion{})
		copy(cds[i+1:], cds[i:])
		cds[i] = cd
	case cd.Deletion.Supersedes(cds[i].Deletion):
		cds[i] = cd
	}
	return cds
}

// columnDeletion returns the deletion of column among cds, ordered by
// column, moving cds past the columns before it.
func columnDeletion(cds *[]replica.ComplexDeletion, column string) replica.Deletion {
	if len(*cds) == 0 {
		return replica.Deletion{}
	}
	for len(*cds) > 0 && (*cds)[0].Column < column {
		*cds = (*cds)[1:]
	}
	if len(*cds) > 0 && (*cds)[0].Column == column {
		return (*cds)[0].Deletion
	}
	return replica.Deletion{}
}
