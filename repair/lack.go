package repair

import (
	"unsafe"

	"github.com/readpath/readpath/replica"
)

// lack is what one version lacks of a merge being built, as positions in
// the merge: enough to build the version's diff, at its exact size, once
// the merge is done. A Resolver reuses its lacks from merge to merge; they
// hold no pointers, so they keep nothing of a merge alive.
type lack struct {
	rows  []lackRow
	cells []int // positions in their merged row's Cells, row after row
	cds   []int // positions in their merged row's ComplexDeletions
}

// lackRow is a merged row of which a version lacks something.
type lackRow struct {
	row                int  // the index of the merged row; -1 for the static row
	cells, cds         int  // where its positions end in lack.cells, lack.cds
	liveness, deletion bool // it lacks the merged row's liveness, row deletion
}

// maxKeptLacks is the most memory, in bytes, a Resolver's lacks may hold
// together to be kept for its next merge: one kept for good (in a
// sync.Pool, as the coordinator's are) kept the positions of its largest
// merge ever, 4 MB after one diff of 100,000 rows, while merges of
// thousands of rows are few.
const maxKeptLacks = 1 << 20

// size is the memory l holds, in bytes.
func (l *lack) size() int {
	return int(unsafe.Sizeof(lackRow{}))*cap(l.rows) + int(unsafe.Sizeof(0))*(cap(l.cells)+cap(l.cds))
}

func (l *lack) reset() {
	l.rows, l.cells, l.cds = l.rows[:0], l.cells[:0], l.cds[:0]
}

// ends returns where the positions of the rows noted so far end.
func (l *lack) ends() (cells, cds int) {
	if n := len(l.rows); n > 0 {
		return l.rows[n-1].cells, l.rows[n-1].cds
	}
	return 0, 0
}

// noteMembers sets m.member from the group just gathered, when diffing.
func (m *merger) noteMembers() {
	if len(m.lacks) == 0 {
		return
	}
	for v := range m.member {
		m.member[v] = -1
	}
	for i, g := range m.group {
		m.member[g.version] = i
	}
}

// noteCell notes, for every version that holds no cell equal to the
// merged row's last, that it lacks it.
func (m *merger) noteCell() {
	at := m.b.cells.pending() - 1
	for v, g := range m.member {
		if g < 0 || !m.group[g].same {
			m.lacks[v].cells = append(m.lacks[v].cells, at)
		}
	}
}

// noteComplexDeletions notes, for every version, the merged row's complex
// deletions, cds, that supersede its own of the same column.
func (m *merger) noteComplexDeletions(cds []replica.ComplexDeletion) {
	for v, g := range m.member {
		var held []replica.ComplexDeletion
		if g >= 0 {
			held = m.group[g].row.ComplexDeletions
		}
		for at, cd := range cds {
			if cd.Deletion.Supersedes(columnDeletion(&held, cd.Column)) {
				m.lacks[v].cds = append(m.lacks[v].cds, at)
			}
		}
	}
}

// noteRow closes, for every version, what it lacks of the merged row just
// ended: the row at index row of the merge (-1: the static row, which has
// no liveness or row deletion), if kept. A row not kept held nothing, so
// none lacks anything of it.
func (m *merger) noteRow(row int, kept bool) {
	if !kept || len(m.lacks) == 0 {
		return
	}
	for v, g := range m.member {
		l := &m.lacks[v]
		lr := lackRow{row: row, cells: len(l.cells), cds: len(l.cds)}
		if row >= 0 {
			held := &replica.Row{}
			if g >= 0 {
				held = m.group[g].row
			}
			lr.liveness, lr.deletion = m.liveness.Supersedes(held.Liveness), m.rowDel.Supersedes(held.Deletion)
		}
		if cells, cds := l.ends(); lr.liveness || lr.deletion || lr.cells > cells || lr.cds > cds {
			l.rows = append(l.rows, lr)
		}
	}
}
