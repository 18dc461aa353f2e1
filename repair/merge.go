package repair

import (
	"fmt"
	"strings"

	"github.com/readpath/readpath/replica"
)

// Merge reconciles versions of one partition, as read from different
// replicas, into the partition they describe together (DESIGN §2.5): the
// strongest partition deletion, for each row the strongest row deletion that
// the partition deletion does not shadow, and for each column the cell that
// Reconcile prefers, unless a deletion at or above its timestamp removes it.
// Rows left with no cells and no deletion disappear; cell tombstones stay, so
// that they reach stale replicas.
//
// Merge is commutative, associative and idempotent. It does not modify its
// arguments and the result shares no memory with them. It runs in one pass
// over the rows and cells of all k versions (a k-way merge, O(n·k) for n
// rows and cells in all; k is a handful of replicas).
//
// With no versions, versions of different keys, or a version that fails
// Validate, Merge returns a *VersionsError matching ErrInvalidVersions.
func Merge(versions ...replica.Partition) (replica.Partition, error) {
	if err := checkVersions(versions); err != nil {
		return replica.Partition{}, err
	}
	return newMerger(versions).run(), nil
}

func checkVersions(versions []replica.Partition) error {
	if len(versions) == 0 {
		return &VersionsError{Index: -1, Reason: "no versions to merge"}
	}
	for i := range versions {
		v := &versions[i]
		if v.Key != versions[0].Key {
			return &VersionsError{Index: i, Reason: fmt.Sprintf("key %q differs from version 0's key %q", v.Key, versions[0].Key)}
		}
		if err := v.Validate(); err != nil {
			return &VersionsError{Index: i, Reason: "fails validation", Err: err}
		}
	}
	return nil
}

// merger holds the state of one Merge: a cursor into each version's rows,
// and scratch space for the rows of one clustering key.
type merger struct {
	versions []replica.Partition
	next     []int          // per version, the index of its next row
	group    []*replica.Row // the rows of the clustering key being merged
	from     []int          // per member of group, the version it came from
	cellNext []int          // per member of group, the index of its next cell
	holders  []int          // the members of group holding the column being merged
	b        builder
}

func newMerger(versions []replica.Partition) *merger {
	k := len(versions)
	scratch := make([]int, 4*k)
	m := &merger{
		versions: versions,
		next:     scratch[:k:k],
		from:     scratch[k : k : 2*k],
		cellNext: scratch[2*k : 2*k : 3*k],
		holders:  scratch[3*k : 3*k : 4*k],
		group:    make([]*replica.Row, 0, k),
	}
	m.b.out.Key = versions[0].Key
	for i := range versions {
		if d := versions[i].Deletion; d.Supersedes(m.b.out.Deletion) {
			m.b.out.Deletion = d
		}
	}
	m.sizeOutput()
	return m
}

// sizeOutput sizes the output for what survives the partition deletion in
// the largest version: when replicas mostly agree, the merge then allocates
// nothing more, and when a deletion wiped the partition, little.
func (m *merger) sizeOutput() {
	var rows, cells, bytes int
	for i := range m.versions {
		r, c, b := survivors(&m.versions[i], m.b.out.Deletion)
		rows, cells, bytes = max(rows, r), max(cells, c), max(bytes, b)
	}
	m.b.out.Rows = make([]replica.Row, 0, rows)
	m.b.cells.hint, m.b.values.hint = cells, bytes
}

// survivors counts the rows, cells and value bytes of v that del leaves.
func survivors(v *replica.Partition, del replica.Deletion) (rows, cells, bytes int) {
	for i := range v.Rows {
		r := &v.Rows[i]
		before := cells
		for j := range r.Cells {
			if c := &r.Cells[j]; !del.Deletes(c.Timestamp) {
				cells++
				bytes += len(c.Value)
			}
		}
		if cells > before || r.Deletion.Supersedes(del) {
			rows++
		}
	}
	return rows, cells, bytes
}

func (m *merger) run() replica.Partition {
	for m.gatherRows() {
		m.mergeRow()
	}
	return m.b.out
}

// gatherRows fills group with the rows of the smallest clustering key not
// merged yet, and moves past them. It reports false when every version is
// exhausted.
func (m *merger) gatherRows() bool {
	m.group, m.from = m.group[:0], m.from[:0]
	for i := range m.versions {
		rows := m.versions[i].Rows
		if m.next[i] == len(rows) {
			continue
		}
		r := &rows[m.next[i]]
		if len(m.group) > 0 {
			c := strings.Compare(r.Clustering, m.group[0].Clustering)
			if c > 0 {
				continue
			}
			if c < 0 {
				m.group, m.from = m.group[:0], m.from[:0]
			}
		}
		m.group, m.from = append(m.group, r), append(m.from, i)
	}
	for _, i := range m.from {
		m.next[i]++
	}
	return len(m.group) > 0
}

// mergeRow merges the rows in group into one output row.
func (m *merger) mergeRow() {
	var rowDel replica.Deletion
	for _, r := range m.group {
		if r.Deletion.Supersedes(rowDel) {
			rowDel = r.Deletion
		}
	}
	active := m.b.out.Deletion
	if rowDel.Supersedes(active) {
		active = rowDel
	} else {
		rowDel = replica.Deletion{} // shadowed by the partition deletion
	}
	m.cellNext = m.cellNext[:len(m.group)]
	clear(m.cellNext)
	for c := m.nextCell(); c != nil; c = m.nextCell() {
		if !active.Deletes(c.Timestamp) {
			m.b.addCell(*c)
		}
	}
	m.b.endRow(m.group[0].Clustering, rowDel)
}

// nextCell returns the winning cell of the smallest column not merged yet in
// group, and moves past that column; nil when the rows are exhausted. One
// column comparison per row: this loop is where a merge spends its time.
func (m *merger) nextCell() *replica.Cell {
	var win *replica.Cell
	m.holders = m.holders[:0]
	for i, r := range m.group {
		if m.cellNext[i] == len(r.Cells) {
			continue
		}
		c := &r.Cells[m.cellNext[i]]
		order := -1
		if win != nil {
			order = strings.Compare(c.Column, win.Column)
		}
		if order > 0 {
			continue
		}
		if order < 0 {
			m.holders = m.holders[:0]
		}
		if order < 0 || compareCells(c, win) > 0 {
			win = c
		}
		m.holders = append(m.holders, i)
	}
	for _, i := range m.holders {
		m.cellNext[i]++
	}
	return win
}
