package repair_test

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// referenceMerge merges versions naively, rule by rule, one element at a
// time, with maps and sorting instead of Merge's single k-way pass: the
// reference that TestMergeMatchesReference holds Merge to.
func referenceMerge(vs []replica.Partition) replica.Partition {
	out := replica.Partition{Key: vs[0].Key}
	for _, v := range vs {
		out.Deletion = strongestDeletion(out.Deletion, v.Deletion)
	}
	out.RangeTombstones = referenceRanges(vs, out.Deletion)
	out.Static = referenceRow(vs, "", true, out.Deletion)
	clusterings := map[string]bool{}
	for _, v := range vs {
		for _, r := range v.Rows {
			clusterings[r.Clustering] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(clusterings)) {
		active := strongestDeletion(out.Deletion, rangeDeletion(out, k))
		if r := referenceRow(vs, k, false, active); !r.IsEmpty() {
			out.Rows = append(out.Rows, r)
		}
	}
	return out
}

// referenceRanges cuts the line at every bound of every version, and gives
// each piece the strongest deletion covering its first key, where it
// supersedes the partition deletion pd; neighbours with one deletion join.
func referenceRanges(vs []replica.Partition, pd replica.Deletion) []replica.RangeTombstone {
	var cuts []replica.Bound
	for _, v := range vs {
		for _, rt := range v.RangeTombstones {
			cuts = append(cuts, rt.Start, rt.End)
		}
	}
	slices.SortFunc(cuts, replica.Bound.Compare)
	cuts = slices.CompactFunc(cuts, func(a, b replica.Bound) bool { return a.Compare(b) == 0 })
	var out []replica.RangeTombstone
	for i := 1; i < len(cuts); i++ {
		d := replica.Deletion{}
		for _, v := range vs {
			d = strongestDeletion(d, rangeDeletion(v, firstKey(cuts[i-1])))
		}
		if !d.Supersedes(pd) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Deletion == d && out[n-1].End.Compare(cuts[i-1]) == 0 {
			out[n-1].End = cuts[i].AsEnd()
			continue
		}
		out = append(out, replica.NewRangeTombstone(cuts[i-1].AsStart(), cuts[i].AsEnd(), d))
	}
	return out
}

// firstKey returns the first clustering key at or after start bound b.
func firstKey(b replica.Bound) string {
	switch s := b.AsStart(); s.Kind {
	case replica.BoundExclusiveStart:
		return s.Clustering + "\x00"
	default:
		return s.Clustering
	}
}

// referenceRow merges the versions' rows at clustering (their static rows
// if static) under the deletion active that covers them.
func referenceRow(vs []replica.Partition, clustering string, static bool, active replica.Deletion) replica.Row {
	var rows []*replica.Row
	for i := range vs {
		if r := rowAt(&vs[i], clustering, static); r != nil {
			rows = append(rows, r)
		}
	}
	out := replica.Row{Clustering: clustering}
	for _, r := range rows {
		out.Deletion = strongestDeletion(out.Deletion, r.Deletion)
		if r.Liveness.Supersedes(out.Liveness) {
			out.Liveness = r.Liveness
		}
	}
	if out.Deletion.Supersedes(active) {
		active = out.Deletion
	} else {
		out.Deletion = replica.Deletion{}
	}
	if active.Deletes(out.Liveness.Timestamp) {
		out.Liveness = replica.Liveness{}
	}
	columnDeletions := referenceComplexDeletions(rows, active, &out)
	cells := map[[2]string]replica.Cell{}
	for _, r := range rows {
		for _, c := range r.Cells {
			key := [2]string{c.Column, c.Path}
			if held, ok := cells[key]; ok {
				c = repair.Reconcile(held, c)
			}
			cells[key] = c
		}
	}
	for _, key := range slices.SortedFunc(maps.Keys(cells), compareCellKeys) {
		if c := cells[key]; !strongestDeletion(active, columnDeletions[c.Column]).Deletes(c.Timestamp) {
			out.Cells = append(out.Cells, c)
		}
	}
	return out
}

// referenceComplexDeletions sets out's complex deletions to the strongest
// of each column that supersedes active, and returns them by column.
func referenceComplexDeletions(rows []*replica.Row, active replica.Deletion, out *replica.Row) map[string]replica.Deletion {
	byColumn := map[string]replica.Deletion{}
	for _, r := range rows {
		for _, cd := range r.ComplexDeletions {
			byColumn[cd.Column] = strongestDeletion(byColumn[cd.Column], cd.Deletion)
		}
	}
	kept := map[string]replica.Deletion{}
	for _, column := range slices.Sorted(maps.Keys(byColumn)) {
		if d := byColumn[column]; d.Supersedes(active) {
			*out = out.WithComplexDeletion(column, d)
			kept[column] = d
		}
	}
	return kept
}

func compareCellKeys(a, b [2]string) int {
	return cmp.Or(strings.Compare(a[0], b[0]), strings.Compare(a[1], b[1]))
}

func strongestDeletion(a, b replica.Deletion) replica.Deletion {
	if b.Supersedes(a) {
		return b
	}
	return a
}

// rangeDeletion returns the deletion of p's range tombstone covering the row
// at clustering, or the zero Deletion.
func rangeDeletion(p replica.Partition, clustering string) replica.Deletion {
	for _, rt := range p.RangeTombstones {
		if rt.Covers(clustering) {
			return rt.Deletion
		}
	}
	return replica.Deletion{}
}

// probeKeys hold a key in every piece the generators' range bounds can cut
// the line into.
var probeKeys = func() []string {
	var keys []string
	for _, k := range rangePositions {
		keys = append(keys, k, k+"\x00")
	}
	return keys
}()

func rowAt(p *replica.Partition, clustering string, static bool) *replica.Row {
	if static {
		return &p.Static
	}
	for i := range p.Rows {
		if p.Rows[i].Clustering == clustering {
			return &p.Rows[i]
		}
	}
	return nil
}

// rowOf returns p's row at clustering, or an empty row.
func rowOf(p replica.Partition, clustering string) *replica.Row {
	if r := rowAt(&p, clustering, false); r != nil {
		return r
	}
	return &replica.Row{}
}

func findCell(r *replica.Row, column, path string) (replica.Cell, bool) {
	for _, c := range r.Cells {
		if c.Column == column && c.Path == path {
			return c, true
		}
	}
	return replica.Cell{}, false
}

func cellOf(p replica.Partition, clustering string, static bool, column, path string) (replica.Cell, bool) {
	r := rowAt(&p, clustering, static)
	if r == nil {
		return replica.Cell{}, false
	}
	return findCell(r, column, path)
}

func complexDeletionOf(r *replica.Row, column string) replica.Deletion {
	for _, cd := range r.ComplexDeletions {
		if cd.Column == column {
			return cd.Deletion
		}
	}
	return replica.Deletion{}
}

// forEachCell calls f with every cell of p: the static row's, then each
// row's.
func forEachCell(p replica.Partition, f func(clustering string, static bool, c replica.Cell)) {
	for _, c := range p.Static.Cells {
		f("", true, c)
	}
	for _, r := range p.Rows {
		for _, c := range r.Cells {
			f(r.Clustering, false, c)
		}
	}
}

// deletedBy reports whether some deletion in some version covers the cell
// of column, written at ts, in the row at clustering (the static row if
// static), at or above ts.
func deletedBy(vs []replica.Partition, clustering string, static bool, column string, ts int64) bool {
	for _, v := range vs {
		ds := []replica.Deletion{v.Deletion}
		if !static {
			ds = append(ds, rangeDeletion(v, clustering))
		}
		if r := rowAt(&v, clustering, static); r != nil {
			ds = append(ds, r.Deletion, complexDeletionOf(r, column))
		}
		for _, d := range ds {
			if d.Deletes(ts) {
				return true
			}
		}
	}
	return false
}
