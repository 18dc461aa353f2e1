package repair

import (
	"strings"

	"github.com/readpath/readpath/replica"
)

// beyond estimates how many rows, cells and value bytes v holds that l
// does not: its static row's cells l's lacks, counted, and those of
// sizeSamples rows spread over v, looked up in l, extrapolated to all of
// v's rows. Replicas that each missed other writes merge into more than
// the largest of them: sized for that one alone, such a merge outgrew its
// Blocks and built in new memory read after read.
func beyond(v, l *replica.Partition) (rows, cells, bytes int) {
	cells, bytes = cellsBeyond(v.Static.Cells, l.Static.Cells)
	n := len(v.Rows)
	samples := min(n, sizeSamples)
	var sr, sc, sb int
	for j := range samples {
		at := sampleAt(j, n, samples)
		r := &v.Rows[at]
		var c, b int
		if q, ok := findRow(l.Rows, r.Clustering, at*len(l.Rows)/n); ok {
			c, b = cellsBeyond(r.Cells, l.Rows[q].Cells)
		} else {
			sr++
			c, b = rowSize(r)
		}
		sc, sb = sc+c, sb+b
	}
	if samples > 0 {
		rows = extrapolate(sr, n, samples)
		cells += extrapolate(sc, n, samples)
		bytes += extrapolate(sb, n, samples)
	}
	return rows, cells, bytes
}

// sampleAt is the index of the j-th of samples rows spread evenly over n,
// the first and the last among them.
func sampleAt(j, n, samples int) int {
	return j * (n - 1) / max(samples-1, 1)
}

// extrapolate scales what samples of n rows held to all n, rounding up.
func extrapolate(sampled, n, samples int) int {
	return (sampled*n + samples - 1) / samples
}

// findRow returns the index of the row of the given clustering in rows,
// which are in clustering order, and whether there is one. It looks at
// guess first: where the row is when versions hold the same rows.
func findRow(rows []replica.Row, clustering string, guess int) (int, bool) {
	if guess < len(rows) && rows[guess].Clustering == clustering {
		return guess, true
	}
	lo, hi := 0, len(rows)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if rows[mid].Clustering < clustering {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < len(rows) && rows[lo].Clustering == clustering
}

// cellsBeyond counts the cells of a whose column and path b holds no cell
// of, and their value bytes; both are in cell order. Out of order, as an
// invalid version's may be, the count is off, not out of range. Rows of as
// many cells whose first and last keys agree are taken to hold the same
// columns, without a walk: replicas mostly differ in values, not columns.
func cellsBeyond(a, b []replica.Cell) (cells, bytes int) {
	if n := len(a); n == len(b) && (n == 0 || compareCellKeys(&a[0], &b[0]) == 0 && compareCellKeys(&a[n-1], &b[n-1]) == 0) {
		return 0, 0
	}
	j := 0
	for i := range a {
		order := 1
		for j < len(b) {
			if order = compareCellKeys(&a[i], &b[j]); order <= 0 {
				break
			}
			j++
		}
		if order != 0 {
			cells++
			bytes += len(a[i].Value)
		}
	}
	return cells, bytes
}

// compareCellKeys orders cells by column, then path.
func compareCellKeys(a, b *replica.Cell) int {
	if order := strings.Compare(a.Column, b.Column); order != 0 {
		return order
	}
	return strings.Compare(a.Path, b.Path)
}
