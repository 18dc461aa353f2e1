package replicatest_test

import (
	"slices"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Mutants that merge a field by the last write rather than the
// reconciliation rules, each caught by the check of conflicting writes.

// lastLivenessWins keeps a row's liveness as the last INSERT wrote it.
func lastLivenessWins(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	for _, w := range p.Rows {
		if i := rowIndex(merged, w.Clustering); i >= 0 && !w.Liveness.IsEmpty() {
			merged.Rows[i].Liveness = w.Liveness
		}
	}
	r.data[k] = merged
	return err
}

// lastComplexDeletionWins keeps a collection's deletion as last written.
func lastComplexDeletionWins(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	overwrite := func(m *replica.Row, w replica.Row) {
		for _, cd := range w.ComplexDeletions {
			if j := slices.IndexFunc(m.ComplexDeletions, func(h replica.ComplexDeletion) bool { return h.Column == cd.Column }); j >= 0 {
				m.ComplexDeletions = slices.Clone(m.ComplexDeletions)
				m.ComplexDeletions[j] = cd
			}
		}
	}
	overwrite(&merged.Static, p.Static)
	for _, w := range p.Rows {
		if i := rowIndex(merged, w.Clustering); i >= 0 {
			overwrite(&merged.Rows[i], w)
		}
	}
	r.data[k] = merged
	return err
}

// lastRangeTombstoneWins keeps range tombstones in an interval map where a
// written range replaces those it overlaps.
func lastRangeTombstoneWins(r *mapReplica, k [2]string, held, p replica.Partition) error {
	held.RangeTombstones = slices.DeleteFunc(slices.Clone(held.RangeTombstones), func(h replica.RangeTombstone) bool {
		return slices.ContainsFunc(p.RangeTombstones, func(w replica.RangeTombstone) bool {
			return h.Start.Compare(w.End) < 0 && w.Start.Compare(h.End) < 0
		})
	})
	return mergeInto(r, k, held, p)
}

// heldDeletionWinsTies keeps the held partition deletion when another has
// its timestamp, rather than the one of the later local deletion time.
func heldDeletionWinsTies(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	if !held.Deletion.IsLive() && !p.Deletion.IsLive() && held.Deletion.MarkedForDeleteAt == p.Deletion.MarkedForDeleteAt {
		merged.Deletion = held.Deletion
	}
	r.data[k] = merged
	return err
}

// valueWinsExpiringTies settles a tie of two live cells by value, even
// when one expires and should win (rule 2 of repair.Reconcile).
func valueWinsExpiringTies(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	for i := range merged.Rows {
		h, w := rowIndex(held, merged.Rows[i].Clustering), rowIndex(p, merged.Rows[i].Clustering)
		if h < 0 || w < 0 {
			continue
		}
		m := &merged.Rows[i]
		m.Cells = slices.Clone(m.Cells)
		for j, c := range m.Cells {
			same := func(o replica.Cell) bool { return o.Column == c.Column && o.Path == c.Path }
			a, b := matchingCell(held.Rows[h], same), matchingCell(p.Rows[w], same)
			if a == nil || b == nil || a.Timestamp != b.Timestamp || a.Tombstone || b.Tombstone {
				continue
			}
			if string(b.Value) > string(a.Value) {
				a = b
			}
			m.Cells[j] = *a
		}
	}
	r.data[k] = merged
	return err
}

// dropsStaticComplexDeletions stores the static row without the deletions
// of its collections.
func dropsStaticComplexDeletions(r *mapReplica, k [2]string, held, p replica.Partition) error {
	p = p.Clone()
	p.Static.ComplexDeletions = nil
	if p.Static.IsEmpty() {
		p.Static = replica.Row{}
	}
	return mergeInto(r, k, held, p)
}

// deletionDropsStaticRow clears the static row on any partition deletion,
// whatever their timestamps.
func deletionDropsStaticRow(r *mapReplica, k [2]string, held, p replica.Partition) error {
	if !p.Deletion.IsLive() {
		held.Static = replica.Row{}
	}
	return mergeInto(r, k, held, p)
}

// lastStaticCellWins overwrites the static row's cells as written.
func lastStaticCellWins(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	merged.Static.Cells = slices.Clone(merged.Static.Cells)
	for _, w := range p.Static.Cells {
		if i := slices.IndexFunc(merged.Static.Cells, func(c replica.Cell) bool { return c.Column == w.Column && c.Path == w.Path }); i >= 0 {
			merged.Static.Cells[i] = w
		}
	}
	r.data[k] = merged
	return err
}

// expiresEarly takes a cell as expired a second early, at nowInSec+1.
func expiresEarly(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.NowInSec > 0 {
		cmd.NowInSec++
	}
	return cmd.Respond(stored)
}

// digestsNoColumnsAsAll sends an empty selection of a digest read as none
// (as protobuf does), digesting every column.
func digestsNoColumnsAsAll(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.DigestOnly && cmd.Columns != nil && len(cmd.Columns) == 0 {
		cmd.Columns = nil
	}
	return cmd.Respond(stored)
}

// appendsToColumns appends a column of its own (the key, say) to the
// caller's selection, writing into the array of a Command others share.
func appendsToColumns(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.Columns != nil {
		withKey := append(cmd.Columns, "\x00pk")
		cmd.Columns = withKey[:len(cmd.Columns)]
	}
	return cmd.Respond(stored)
}

func rowIndex(p replica.Partition, clustering string) int {
	return slices.IndexFunc(p.Rows, func(r replica.Row) bool { return r.Clustering == clustering })
}

func matchingCell(r replica.Row, match func(replica.Cell) bool) *replica.Cell {
	if i := slices.IndexFunc(r.Cells, match); i >= 0 {
		return &r.Cells[i]
	}
	return nil
}
