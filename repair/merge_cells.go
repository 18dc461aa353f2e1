package repair

import (
	"strings"

	"github.com/readpath/readpath/replica"
)

// nextCell returns the winning cell of the smallest (column, path) not
// merged yet in group, and moves past it; nil when the rows are exhausted.
// It sets same in the members that hold a cell equal to the winner. This
// is where a merge spends its time.
func (m *merger) nextCell() *replica.Cell {
	for i := range m.group {
		m.group[i].same = false
	}
	if m.aligned {
		if win, ok := m.nextAligned(); ok {
			return win
		}
		m.aligned = false
	}
	return m.nextSmallest()
}

// cellsAligned reports whether the rows in group hold as many cells each:
// rows written with one schema mostly do, and then hold the same keys in
// the same places, which nextAligned needs no search to merge.
func (m *merger) cellsAligned() bool {
	n := len(m.group[0].row.Cells)
	for i := 1; i < len(m.group); i++ {
		if len(m.group[i].row.Cells) != n {
			return false
		}
	}
	return true
}

// nextAligned is nextCell where every member's next cell is at the same
// index: when their keys are the same too, it picks the winner without a
// search for the smallest key, and reports true. Otherwise it reports
// false and moves nothing.
func (m *merger) nextAligned() (*replica.Cell, bool) {
	j := m.group[0].cell
	if j == len(m.group[0].row.Cells) {
		return nil, true // every member is exhausted
	}
	first := &m.group[0].row.Cells[j]
	win := first
	m.group[0].same = true
	for i := 1; i < len(m.group); i++ {
		g := &m.group[i]
		c := &g.row.Cells[j]
		if c.Column != first.Column || c.Path != first.Path {
			return nil, false
		}
		m.rank(g, c, &win)
	}
	for i := range m.group {
		m.group[i].cell++
	}
	return win, true
}

// rank ranks member g's cell c, of the key of *win, against *win: a
// stronger c becomes the winner, and only the members holding a cell equal
// to the winner keep same.
func (m *merger) rank(g *member, c *replica.Cell, win **replica.Cell) {
	switch w := compareCells(c, *win); {
	case w > 0:
		for i := range m.group {
			m.group[i].same = false
		}
		*win = c
		g.same = true
	case w == 0:
		g.same = true
	}
}

// nextSmallest is nextCell by a search for the smallest key among the
// members' next cells.
func (m *merger) nextSmallest() *replica.Cell {
	var win *replica.Cell
	m.holders = m.holders[:0]
	for i := range m.group {
		g := &m.group[i]
		if g.cell == len(g.row.Cells) {
			continue
		}
		c := &g.row.Cells[g.cell]
		order := -1
		if win != nil { // by column, then path; simple columns have none
			order = strings.Compare(c.Column, win.Column)
			if order == 0 && len(c.Path)|len(win.Path) != 0 {
				order = strings.Compare(c.Path, win.Path)
			}
		}
		switch {
		case order < 0: // a smaller key: the holders so far do not hold it
			for _, h := range m.holders {
				m.group[h].same = false
			}
			m.holders, win, g.same = m.holders[:0], c, true
		case order == 0:
			m.rank(g, c, &win)
		default:
			continue
		}
		m.holders = append(m.holders, i)
	}
	for _, i := range m.holders {
		m.group[i].cell++
	}
	return win
}
