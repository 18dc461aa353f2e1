package repair

import "github.com/readpath/readpath/replica"

// sizeSamples is how many rows, spread over a version, estimate reads.
const sizeSamples = 8

// sizeOutput sizes the output for the union of the versions (see
// outputSize), in the merger's Blocks where they fit: the merge then
// allocates nothing more. The sizes come from a few rows of each version,
// not a walk over them all, which would read every version from memory
// once more before the merge does (see validateCells); only under a
// partition deletion are they counted, so that a deletion that wiped the
// partition leaves little to allocate.
func (m *merger) sizeOutput() {
	rows, cells, bytes := outputSize(m.versions, m.b.out.Deletion)
	m.b.out.Rows = nil
	if m.blocks != nil {
		m.b.out.Rows, m.b.cells.block = reusable(m.blocks.rows, rows), reusable(m.blocks.cells, cells)
	}
	if m.b.out.Rows == nil {
		m.b.out.Rows = make([]replica.Row, 0, rows)
	}
	m.b.cells.hint = cells
	if !m.b.shareValues {
		m.b.values.hint = bytes
	}
}

// SizeFor returns about how many bytes of Blocks a merge of versions
// builds its rows and cells in, which Blocks.Size reports after it: a
// caller that pools Blocks by size picks, with it, ones the merge will
// use, where a merge passes over Blocks too small, or too much larger than
// it needs, and builds in new memory. It reads a few rows of each version,
// looking each up in the version of most rows, so that versions that each
// lack what the others hold are sized for their union; under a partition
// deletion, it counts the rows that survive it instead.
func SizeFor(versions ...replica.Partition) int {
	var del replica.Deletion
	for i := range versions {
		if d := versions[i].Deletion; d.Supersedes(del) {
			del = d
		}
	}
	rows, cells, _ := outputSize(versions, del)
	return rows*rowBytes + cells*cellBytes
}

// outputSize estimates the rows, cells and value bytes of the merge of
// versions under the partition deletion del: those of the version of most
// rows, and what each other one holds beyond it (see beyond). Under a
// partition deletion, which may leave any of them, the largest count of
// survivors of one version.
func outputSize(versions []replica.Partition, del replica.Deletion) (rows, cells, bytes int) {
	if !del.IsLive() {
		for i := range versions {
			r, c, b := estimate(&versions[i], del)
			rows, cells, bytes = max(rows, r), max(cells, c), max(bytes, b)
		}
		return rows, cells, bytes
	}
	largest := 0
	for i := range versions {
		if len(versions[i].Rows) > len(versions[largest].Rows) {
			largest = i
		}
	}
	if len(versions) > 0 {
		rows, cells, bytes = estimate(&versions[largest], del)
	}
	for i := range versions {
		if i != largest {
			r, c, b := beyond(&versions[i], &versions[largest])
			rows, cells, bytes = rows+r, cells+c, bytes+b
		}
	}
	return rows, cells, bytes
}

// estimate returns how many rows, cells and value bytes of v are likely to
// survive the partition deletion del: all of them when del is live, their
// cells and bytes extrapolated from sizeSamples rows spread over v; those
// del leaves, counted, otherwise.
func estimate(v *replica.Partition, del replica.Deletion) (rows, cells, bytes int) {
	if !del.IsLive() {
		return survivors(v, del)
	}
	cells, bytes = rowSize(&v.Static)
	n := len(v.Rows)
	samples := min(n, sizeSamples)
	var sc, sb int
	for j := range samples {
		c, b := rowSize(&v.Rows[sampleAt(j, n, samples)])
		sc, sb = sc+c, sb+b
	}
	if samples > 0 {
		cells += extrapolate(sc, n, samples)
		bytes += extrapolate(sb, n, samples)
	}
	return n, cells, bytes
}

// rowSize returns how many cells and value bytes r holds.
func rowSize(r *replica.Row) (cells, bytes int) {
	for j := range r.Cells {
		bytes += len(r.Cells[j].Value)
	}
	return len(r.Cells), bytes
}

// survivors counts the rows, cells and value bytes of v that del leaves,
// the static row's cells among them: the merge builds those in its cells
// too.
func survivors(v *replica.Partition, del replica.Deletion) (rows, cells, bytes int) {
	for j := range v.Static.Cells {
		if c := &v.Static.Cells[j]; !del.Deletes(c.Timestamp) {
			cells++
			bytes += len(c.Value)
		}
	}
	for i := range v.Rows {
		r := &v.Rows[i]
		before := cells
		for j := range r.Cells {
			if c := &r.Cells[j]; !del.Deletes(c.Timestamp) {
				cells++
				bytes += len(c.Value)
			}
		}
		if cells > before || r.Deletion.Supersedes(del) || (!r.Liveness.IsEmpty() && !del.Deletes(r.Liveness.Timestamp)) ||
			len(r.ComplexDeletions) > 0 {
			rows++
		}
	}
	return rows, cells, bytes
}
