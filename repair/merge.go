package repair

import (
	"slices"
	"strings"

	"github.com/readpath/readpath/replica"
)

// Merge reconciles versions of one partition, as read from different
// replicas, into the partition they describe together, by Cassandra's rules
// (its Rows.merge and RangeTombstoneList, as of 4.1/5.0):
//
//   - the strongest partition deletion (Deletion.Supersedes);
//   - over each stretch of clustering keys, the strongest range tombstone
//     of any version, where it supersedes the partition deletion (one equal
//     to it goes, as Cassandra drops it for a query that names its rows,
//     SinglePartitionSliceCommandTest.testPartitionDeletionRangeDeletionTie;
//     Cassandra's merge of slice reads keeps it); two range deletions of one
//     timestamp rank by local deletion time, as its read path's marker merge
//     ranks them (RangeTombstoneList, which keeps whichever came first, is
//     its memtables'); the list
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
// rows, cells and range tombstones in all; k is a handful of replicas),
// checking each row just before it merges it. To merge and diff in that
// one pass, use a Resolver.
//
// With no versions, versions of different keys, or a version that fails
// Validate, Merge returns a *VersionsError matching ErrInvalidVersions.
func Merge(versions ...replica.Partition) (replica.Partition, error) {
	var m merger // on the stack: one allocation fewer per merge
	return m.merge(versions, mergeMode{})
}

// merger holds the state of one merge: a cursor into each version's rows,
// the rows of the clustering key being merged, and, when diffing, what
// each version lacks. A Resolver reuses one from merge to merge.
type merger struct {
	versions []replica.Partition
	ints     []int       // the backing of next, valid and member
	next     []int       // per version, the index of its next row
	valid    []int       // per version, how many of its rows are validated
	group    []member    // the rows of the clustering key being merged
	ranges   coverCursor // the merged range tombstones, ahead of the rows
	rowDel   replica.Deletion
	liveness replica.Liveness
	invalid  bool // a row failed validation, and the merge stopped there
	b        builder
	blocks   *Blocks // where to build the output, if not nil
	// When diffing: per version, the member of group it has, or -1; and
	// what it lacks of the merge so far.
	member []int
	lacks  []lack
}

// member is one version's row in the group being merged.
type member struct {
	row     *replica.Row
	version int  // the index of the version it came from
	cell    int  // the index of its next cell
	holds   bool // it holds a cell of the key being merged,
	same    bool // equal to the winning one
}

// mergeMode says how a merger merges.
type mergeMode struct {
	diffing     bool // note what each version lacks (a Resolver)
	rowsValid   bool // the caller vouches for the versions' rows
	shareValues bool // the output's cells keep the versions' values
}

// merge merges versions as mode says. On invalid versions it returns
// checkVersions' error.
func (m *merger) merge(versions []replica.Partition, mode mergeMode) (replica.Partition, error) {
	if err := checkHeads(versions); err != nil {
		return replica.Partition{}, err
	}
	m.prepare(versions, mode.diffing)
	if mode.rowsValid {
		for i := range versions {
			m.valid[i] = len(versions[i].Rows)
		}
	}
	m.b.shareValues = mode.shareValues
	m.sizeOutput()
	out := m.run()
	if m.blocks != nil {
		m.blocks.keep(out.Rows, m.b.cells.block)
	}
	if m.invalid {
		return replica.Partition{}, checkVersions(versions)
	}
	return out, nil
}

// prepare points m at versions, with its scratch space sized for them and
// cleared, reusing what an earlier merge left.
func (m *merger) prepare(versions []replica.Partition, diffing bool) {
	k := len(versions)
	m.versions, m.invalid = versions, false
	m.ints = resize(m.ints, 3*k)
	m.next, m.valid, m.member = m.ints[:k:k], m.ints[k:2*k:2*k], m.ints[2*k:3*k:3*k]
	m.group = resize(m.group, k)[:0]
	m.b = builder{out: replica.Partition{Key: versions[0].Key}}
	for i := range versions {
		if d := versions[i].Deletion; d.Supersedes(m.b.out.Deletion) {
			m.b.out.Deletion = d
		}
	}
	// The lacks' own slices are kept, their arrays reused, unless together
	// past maxKeptLacks: all of them count, not only those this merge
	// uses, or those of an earlier merge of more versions, or kept through
	// merges that do not diff, were kept for good.
	all, size := m.lacks[:cap(m.lacks)], 0
	for i := range all {
		size += all[i].size()
	}
	if size > maxKeptLacks {
		all = nil
	}
	for i := range all {
		all[i].reset()
	}
	m.lacks = all[:0]
	if diffing {
		m.lacks = slices.Grow(m.lacks, k)[:k]
	}
}

// resize returns s with length n and zero elements, reusing its array if
// it is large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// release drops m's references to the versions and the output, so that a
// reused merger holds on to nothing of the caller's.
func (m *merger) release() {
	clear(m.group[:cap(m.group)])
	m.versions, m.group, m.ranges, m.b, m.blocks = nil, m.group[:0], coverCursor{}, builder{}, nil
}

func (m *merger) run() replica.Partition {
	m.mergeStatic()
	m.b.mergeRanges(m.versions)
	m.ranges.rts = m.b.out.RangeTombstones
	for m.gatherRows() {
		active := m.b.out.Deletion
		if d := m.ranges.at(m.group[0].row.Clustering); !d.IsLive() {
			active = d // it supersedes the partition deletion, or it would not be there
		}
		m.mergeRow(active)
		m.endRow()
	}
	return m.b.out
}

// mergeStatic merges the versions' static rows, which only the partition
// deletion covers.
func (m *merger) mergeStatic() {
	m.group = m.group[:0]
	for i := range m.versions {
		if s := &m.versions[i].Static; !s.IsEmpty() {
			m.group = append(m.group, member{row: s, version: i})
		}
	}
	if len(m.group) == 0 {
		return
	}
	m.noteMembers()
	m.mergeRow(m.b.out.Deletion)
	m.b.endStatic()
	m.noteRow(-1, true)
}

// endRow closes the row merged from group: the builder keeps it unless it
// holds nothing, and each version's lack notes what it lacks of it.
func (m *merger) endRow() {
	kept := m.b.endRow(m.group[0].row.Clustering, m.liveness, m.rowDel)
	m.noteRow(len(m.b.out.Rows)-1, kept)
}

// gatherRows fills group with the rows of the smallest clustering key not
// merged yet, and moves past them. It reports false when every version is
// exhausted, or when a row it reached fails validation (m.invalid).
func (m *merger) gatherRows() bool {
	m.group = m.group[:0]
	for i := range m.versions {
		r := m.peek(i)
		if r == nil {
			if m.invalid {
				return false
			}
			continue
		}
		if len(m.group) > 0 {
			c := strings.Compare(r.Clustering, m.group[0].row.Clustering)
			if c > 0 {
				continue
			}
			if c < 0 {
				m.group = m.group[:0]
			}
		}
		m.group = append(m.group, member{row: r, version: i})
	}
	for _, g := range m.group {
		m.next[g.version]++
	}
	m.noteMembers()
	return len(m.group) > 0
}

// peek returns version i's next row, validated, or nil when it has no
// more or (setting m.invalid) when its next stretch fails validation.
func (m *merger) peek(i int) *replica.Row {
	rows := m.versions[i].Rows
	if m.next[i] == len(rows) {
		return nil
	}
	if m.next[i] == m.valid[i] && !m.validateAhead(i) {
		m.invalid = true
		return nil
	}
	return &rows[m.next[i]]
}
