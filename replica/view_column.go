package replica

import (
	"slices"
	"strings"
)

// Column returns the row's live cells of the named column: a simple
// column's one cell, a complex column's elements in path order, or none.
// The slice shares the row's cells, and its capacity ends with them, so
// that appending to it copies rather than overwrites the row's next
// column.
func (r ViewRow) Column(name string) []Cell { return columnCells(r.Cells, name) }

// StaticColumn returns the live static cells of the named column, as
// ViewRow.Column does a row's; CQL shows them on every row.
func (v View) StaticColumn(name string) []Cell { return columnCells(v.Static, name) }

// columnCells is the run of cells, ordered by column then path, of column
// name: found by binary search, as a wide row has many columns.
func columnCells(cells []Cell, name string) []Cell {
	i, _ := slices.BinarySearchFunc(cells, name, func(c Cell, n string) int { return strings.Compare(c.Column, n) })
	j := i
	for j < len(cells) && cells[j].Column == name {
		j++
	}
	return cells[i:j:j]
}
