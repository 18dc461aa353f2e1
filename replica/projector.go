package replica

import (
	"slices"
	"sort"
	"strings"
)

// projector projects a restricted partition's rows to a column selection
// as a scan reaches them, in the scan's order, so that a read that stops at
// its limit projects only the rows it met: Partition.Project, which it
// matches row for row, visits and copies every row. Rows it leaves empty
// are dropped, as Project drops them, so the scan never meets them.
//
// A projected row's cells are a part of its source row's when the selected
// ones lie together, else cut, as its complex deletions are, from a few
// shared arrays (piles): nothing is allocated row by row. The projected
// rows share cell values with the source.
type projector struct {
	columns  []string // sorted, for binary search
	src      []Row
	reversed bool
	next     int   // source rows projected, in scan order
	rows     []Row // the non-empty projected rows, in scan order
	expect   int   // rows the answer is expected to hold, to size the piles
	cells    pile[Cell]
	cds      pile[ComplexDeletion]
}

// newProjector returns a projector of p's rows to columns, in q's order,
// and projects p.Static in place. It returns nil for nil columns, which
// select every column.
func newProjector(p *Partition, columns []string, q Query) *projector {
	if columns == nil {
		return nil
	}
	if !slices.IsSorted(columns) {
		columns = slices.Clone(columns) // the command's is shared
		slices.Sort(columns)
	}
	pr := &projector{columns: columns, src: p.Rows, reversed: q.Reversed, expect: len(p.Rows)}
	if q.Limit > 0 {
		pr.expect = min(q.Limit, len(p.Rows))
	}
	pr.rows = make([]Row, 0, pr.expect)
	p.Static = pr.project(&p.Static, 1)
	return pr
}

// more projects source rows, in scan order, until one is not left empty
// and joins pr.rows. It reports false when the source holds no more.
func (pr *projector) more() bool {
	for pr.next < len(pr.src) {
		i := pr.next
		if pr.reversed {
			i = len(pr.src) - 1 - i
		}
		pr.next++
		if r := pr.project(&pr.src[i], pr.expect-len(pr.rows)); !r.IsEmpty() {
			pr.rows = append(pr.rows, r)
			return true
		}
	}
	return false
}

// ascending returns the rows projected so far in ascending clustering
// order. It reorders them in place: the projector is not used after.
func (pr *projector) ascending() []Row {
	if pr.reversed {
		slices.Reverse(pr.rows)
	}
	return pr.rows
}

// project returns r with only the selected columns, as Row.project does;
// rows is how many rows, r among them, the piles should expect to hold.
func (pr *projector) project(r *Row, rows int) Row {
	out := Row{Clustering: r.Clustering, Liveness: r.Liveness, Deletion: r.Deletion}
	for _, cd := range r.ComplexDeletions {
		if pr.selects(cd.Column) {
			pr.cds.add(cd, len(r.ComplexDeletions))
		}
	}
	out.ComplexDeletions = pr.cds.take()
	out.Cells = pr.cellsOf(r, rows)
	return out
}

// cellsOf returns r's selected cells. When they lie in one run of r.Cells,
// as a selection of one column or of neighbouring ones does, that is a part
// of r.Cells, shared with no room to grow; otherwise the pile holds a copy.
// Cells and columns are both sorted, so it walks them together, galloping
// over the cells or columns between two matches: a selection of a few
// columns of a wide row costs a few searches, and one of every column a
// comparison a cell, where a binary search of the columns for every cell
// cost log2(columns) comparisons a cell (6x reading the whole row, for all
// of 10,000 columns).
func (pr *projector) cellsOf(r *Row, rows int) []Cell {
	size := max(rows, 1) * min(len(r.Cells), len(pr.columns)) // a guess: a complex column holds several
	lo, hi, copying := 0, 0, false                            // the run r.Cells[lo:hi], until a second starts
	cells, cols := r.Cells, pr.columns
	for i := 0; i < len(cells) && len(cols) > 0; {
		switch col := cells[i].Column; strings.Compare(col, cols[0]) { // one comparison of a long common prefix
		case -1:
			i += gallop(cells[i:], func(c *Cell) bool { return c.Column < cols[0] })
			continue
		case 1:
			cols = cols[gallop(cols, func(s *string) bool { return *s < col }):]
			continue
		}
		switch {
		case copying:
			pr.cells.add(cells[i], size)
		case lo == hi:
			lo, hi = i, i+1
		case i == hi:
			hi++
		default:
			copying = true
			for _, c := range cells[lo:hi] {
				pr.cells.add(c, size)
			}
			pr.cells.add(cells[i], size)
		}
		i++
	}
	if copying {
		return pr.cells.take()
	}
	if lo == hi {
		return nil
	}
	return cells[lo:hi:hi]
}

// gallop returns how many leading elements of s are before, s[0] among
// them, in about 2·log2 of that many calls: an exponential search, then a
// binary one.
func gallop[T any](s []T, before func(*T) bool) int {
	hi := 1
	for hi < len(s) && before(&s[hi]) {
		hi *= 2
	}
	lo := hi / 2 // before(&s[lo]) holds
	hi = min(hi, len(s))
	return lo + 1 + sort.Search(hi-lo-1, func(k int) bool { return !before(&s[lo+1+k]) })
}

// selects reports whether column is selected: a binary search, so that a
// wide selection costs a few comparisons a cell, not one a column.
func (pr *projector) selects(column string) bool {
	_, found := slices.BinarySearch(pr.columns, column)
	return found
}

// pile hands out consecutive parts of one array, and starts another when
// it is full, so that many small slices cost a few allocations. Earlier
// arrays stay with the slices taken from them.
type pile[T any] struct {
	buf   []T
	start int // where the part being built starts in buf
}

// add appends v to the part being built. When buf is full it moves that
// part to a new array of at least size elements, and at least buf's size.
func (p *pile[T]) add(v T, size int) {
	if len(p.buf) == cap(p.buf) {
		part := p.buf[p.start:]
		p.buf = append(make([]T, 0, max(size, cap(p.buf), 2*len(part)+1)), part...)
		p.start = 0
	}
	p.buf = append(p.buf, v)
}

// take returns the part built since the last take, nil if empty, with no
// room to grow into the next part.
func (p *pile[T]) take() []T {
	if p.start == len(p.buf) {
		return nil
	}
	part := p.buf[p.start:len(p.buf):len(p.buf)]
	p.start = len(p.buf)
	return part
}
