package repair

import (
	"strings"

	"github.com/readpath/readpath/replica"
)

// nextCell returns the winning cell of the smallest (column, path) not
// merged yet in group, and moves past it; nil when the rows are exhausted.
// It sets same in the members that hold a cell equal to the winner, and
// clears it in the others. This is where a merge spends its time.
func (m *merger) nextCell() *replica.Cell {
	if len(m.group) == 2 {
		return m.nextOfTwo()
	}
	var win *replica.Cell
	group := m.group
	for i := range group {
		g := &group[i]
		g.same, g.holds = false, false
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
		case order < 0: // a smaller key: the members so far do not hold it
			for j := range group[:i] {
				group[j].same, group[j].holds = false, false
			}
			win, g.same, g.holds = c, true, true
		case order == 0:
			g.holds = true
			m.rank(g, c, &win)
		}
	}
	for i := range group {
		if group[i].holds {
			group[i].cell++
		}
	}
	return win
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

// nextOfTwo is nextCell for a group of two rows, the common case: a QUORUM
// read at a replication factor of 3 merges two versions.
func (m *merger) nextOfTwo() *replica.Cell {
	a, b := &m.group[0], &m.group[1]
	a.same, b.same = false, false
	switch {
	case b.cell == len(b.row.Cells):
		return a.take()
	case a.cell == len(a.row.Cells):
		return b.take()
	}
	ca, cb := &a.row.Cells[a.cell], &b.row.Cells[b.cell]
	order := strings.Compare(ca.Column, cb.Column)
	if order == 0 && len(ca.Path)|len(cb.Path) != 0 {
		order = strings.Compare(ca.Path, cb.Path)
	}
	switch {
	case order < 0:
		return a.take()
	case order > 0:
		return b.take()
	}
	a.cell, b.cell = a.cell+1, b.cell+1
	w := compareCells(ca, cb)
	a.same, b.same = w >= 0, w <= 0
	if w < 0 {
		return cb
	}
	return ca
}

// take returns g's next cell, or nil if it has none, as the winner that g
// alone holds, and moves past it.
func (g *member) take() *replica.Cell {
	if g.cell == len(g.row.Cells) {
		return nil
	}
	g.cell++
	g.same = true
	return &g.row.Cells[g.cell-1]
}
