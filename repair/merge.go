package repair

import (
	"fmt"
	"strings"

	"github.com/readpath/readpath/replica"
)

// Merge reconciles versions of one partition, as read from different
// replicas, into the partition they describe together, by Cassandra's rules
// (DESIGN §2.5):
//
//   - the strongest partition deletion (Deletion.Supersedes);
//   - over each stretch of clustering keys, the strongest range tombstone
//     of any version, where it supersedes the partition deletion; the list
//     is canonical: ordered, split where deletions change, joined where
//     neighbours have the same deletion, each bound in the form
//     Bound.AsStart and AsEnd give it;
//   - for the static row and each row: the strongest row deletion and
//     complex deletions that supersede what covers them, the liveness that
//     supersedes (replica.Liveness.Supersedes) unless a deletion removes
//     it, and for each (column, path) the cell that Reconcile prefers,
//     unless a deletion at or above its timestamp removes it.
//
// Rows left holding nothing disappear; tombstones stay, so that they reach
// stale replicas. Merge does not judge expiry: purge versions at the read's
// time (replica.Partition.Purge, as replicas do before answering) first.
//
// Merge is commutative, associative and idempotent. It does not modify its
// arguments and the result shares no memory with them. It runs in one pass
// over the rows and cells of all k versions (a k-way merge, O(n·k) for n
// rows, cells and range tombstones in all; k is a handful of replicas).
//
// With no versions, versions of different keys, or a version that fails
// Validate, Merge returns a *VersionsError matching ErrInvalidVersions.
func Merge(versions ...replica.Partition) (replica.Partition, error) {
	if err := checkVersions(versions); err != nil {
		return replica.Partition{}, err
	}
	m := merger{versions: versions} // on the stack: one allocation fewer per merge
	m.init()
	return m.run(), nil
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
	holders  []int          // the members of group holding the cell being merged
	ranges   coverCursor    // the merged range tombstones, ahead of the rows
	rowDel   replica.Deletion
	liveness replica.Liveness
	b        builder
}

// init sizes m's scratch space and output for m.versions.
func (m *merger) init() {
	k := len(m.versions)
	scratch := make([]int, 4*k)
	m.next, m.from = scratch[:k:k], scratch[k:k:2*k]
	m.cellNext, m.holders = scratch[2*k:2*k:3*k], scratch[3*k:3*k:4*k]
	m.group = make([]*replica.Row, 0, k)
	m.b.out.Key = m.versions[0].Key
	for i := range m.versions {
		if d := m.versions[i].Deletion; d.Supersedes(m.b.out.Deletion) {
			m.b.out.Deletion = d
		}
	}
	m.sizeOutput()
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
		if cells > before || r.Deletion.Supersedes(del) || (!r.Liveness.IsEmpty() && !del.Deletes(r.Liveness.Timestamp)) ||
			len(r.ComplexDeletions) > 0 {
			rows++
		}
	}
	return rows, cells, bytes
}

func (m *merger) run() replica.Partition {
	m.mergeStatic()
	m.b.mergeRanges(m.versions)
	m.ranges.rts = m.b.out.RangeTombstones
	for m.gatherRows() {
		active := m.b.out.Deletion
		if d := m.ranges.at(m.group[0].Clustering); !d.IsLive() {
			active = d // it supersedes the partition deletion, or it would not be there
		}
		m.mergeRow(active)
		m.b.endRow(m.group[0].Clustering, m.liveness, m.rowDel)
	}
	return m.b.out
}

// mergeStatic merges the versions' static rows, which only the partition
// deletion covers.
func (m *merger) mergeStatic() {
	m.group, m.from = m.group[:0], m.from[:0]
	for i := range m.versions {
		if s := &m.versions[i].Static; !s.IsEmpty() {
			m.group, m.from = append(m.group, s), append(m.from, i)
		}
	}
	if len(m.group) == 0 {
		return
	}
	m.mergeRow(m.b.out.Deletion)
	m.b.endStatic()
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
