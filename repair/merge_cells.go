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
