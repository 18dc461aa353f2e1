package repair

import "github.com/readpath/readpath/replica"

// builder assembles a partition row by row, copying every cell value into
// its own arena so that the result shares no memory with its sources.
// Strings are shared: they are immutable.
type builder struct {
	out    replica.Partition
	cells  arena[replica.Cell]
	values arena[byte]
}

// addCell appends c, with a copy of its value, to the row being built.
func (b *builder) addCell(c replica.Cell) {
	if c.Value != nil {
		b.values.add(c.Value...)
		c.Value = b.values.seal()
	}
	b.cells.add(c)
}

// endRow closes the row being built under clustering with deletion d. A row
// with no cells and no deletion is dropped.
func (b *builder) endRow(clustering string, d replica.Deletion) {
	cells := b.cells.seal()
	if len(cells) == 0 {
		if d.IsLive() {
			return
		}
		cells = nil
	}
	b.out.Rows = append(b.out.Rows, replica.Row{Clustering: clustering, Deletion: d, Cells: cells})
}
