package replica_test

import (
	"slices"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// Generators of valid partitions over small alphabets, so that equal and
// nearly equal partitions are common.

var (
	smallString = rapid.StringMatching(`[abc]{0,3}`)
	// partitionKey is never empty: Validate refuses an empty key.
	partitionKey = rapid.StringMatching(`[abc]{1,3}`)
	smallInt     = rapid.Int64Range(0, 4)
	positive     = rapid.Int64Range(1, 4)
	// value is now and then long enough to be digested rather than copied
	// into the encoding (digest.LargeField).
	value = rapid.OneOf(smallString, smallString, smallString,
		rapid.StringOfN(rapid.RuneFrom([]rune("ab")), digest.LargeField-1, digest.LargeField+1, -1))
)

func deletionGen() *rapid.Generator[replica.Deletion] {
	return rapid.Custom(func(t *rapid.T) replica.Deletion {
		if rapid.Bool().Draw(t, "live") {
			return replica.Deletion{}
		}
		return replica.DeletedAt(smallInt.Draw(t, "ts"), positive.Draw(t, "ldt"))
	})
}

func livenessGen() *rapid.Generator[replica.Liveness] {
	return rapid.Custom(func(t *rapid.T) replica.Liveness {
		switch rapid.IntRange(0, 2).Draw(t, "liveness") {
		case 0:
			return replica.Liveness{}
		case 1:
			return replica.Inserted(positive.Draw(t, "ts"))
		}
		return replica.InsertedWithTTL(smallInt.Draw(t, "ts"), int32(rapid.IntRange(1, 3).Draw(t, "ttl")), positive.Draw(t, "expiresAt"))
	})
}

func cellGen(column, path string) *rapid.Generator[replica.Cell] {
	return rapid.Custom(func(t *rapid.T) replica.Cell {
		ts := smallInt.Draw(t, "ts")
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			return replica.Live(column, value.Draw(t, "value"), ts).WithPath(path)
		case 1:
			ttl := int32(rapid.IntRange(1, 3).Draw(t, "ttl"))
			return replica.Expiring(column, value.Draw(t, "value"), ts, ttl, int64(ttl)+smallInt.Draw(t, "written")).WithPath(path)
		}
		return replica.Tombstone(column, ts, smallInt.Draw(t, "ldt")).WithPath(path)
	})
}

// contentsGen draws complex deletions and cells, some with paths.
func contentsGen(r *replica.Row, t *rapid.T) {
	for _, column := range sortedDistinct(t, "complex deleted") {
		if d := deletionGen().Draw(t, "cd"); !d.IsLive() {
			*r = r.WithComplexDeletion(column, d)
		}
	}
	for _, column := range sortedDistinct(t, "columns") {
		for _, path := range pathsGen(t) {
			r.Cells = append(r.Cells, cellGen(column, path).Draw(t, "cell"))
		}
	}
}

// pathsGen draws the paths of a column's cells: most often none, a simple
// column's one cell.
func pathsGen(t *rapid.T) []string {
	if rapid.IntRange(0, 3).Draw(t, "complex") > 0 {
		return []string{""}
	}
	return sortedDistinct(t, "paths")
}

func rowGen(clustering string) *rapid.Generator[replica.Row] {
	return rapid.Custom(func(t *rapid.T) replica.Row {
		r := replica.Row{Clustering: clustering, Deletion: deletionGen().Draw(t, "deletion"),
			Liveness: livenessGen().Draw(t, "liveness")}
		contentsGen(&r, t)
		if r.IsEmpty() { // Validate rejects empty rows
			r.Deletion = replica.DeletedAt(smallInt.Draw(t, "ts"), positive.Draw(t, "ldt"))
		}
		return r
	})
}

func staticGen() *rapid.Generator[replica.Row] {
	return rapid.Custom(func(t *rapid.T) replica.Row {
		var r replica.Row
		if rapid.Bool().Draw(t, "static") {
			contentsGen(&r, t)
		}
		return r
	})
}

// positions are the places a bound can stand, in order: before and after
// each of a few keys, and after every key.
var positions = []struct {
	key   string
	after bool
	top   bool
}{{"", false, false}, {"", true, false}, {"a", false, false}, {"a", true, false},
	{"b", false, false}, {"b", true, false}, {"c", false, false}, {"c", true, false}, {"", false, true}}

// rangesGen draws a valid list of range tombstones: ordered, not
// overlapping though possibly touching, with bounds in every form.
func rangesGen() *rapid.Generator[[]replica.RangeTombstone] {
	return rapid.Custom(func(t *rapid.T) []replica.RangeTombstone {
		var rts []replica.RangeTombstone
		at := 0
		for range rapid.IntRange(0, 3).Draw(t, "ranges") {
			start := rapid.IntRange(at, len(positions)-1).Draw(t, "start")
			if start >= len(positions)-1 {
				break
			}
			end := rapid.IntRange(start+1, len(positions)-1).Draw(t, "end")
			rts = append(rts, replica.NewRangeTombstone(startBound(t, start), endBound(end),
				replica.DeletedAt(smallInt.Draw(t, "ts"), positive.Draw(t, "ldt"))))
			at = end
		}
		return rts
	})
}

func startBound(t *rapid.T, i int) replica.Bound {
	p := positions[i]
	switch {
	case p.after:
		return replica.StartAfter(p.key)
	case p.key == "" && rapid.Bool().Draw(t, "bottom"):
		return replica.Bottom()
	}
	return replica.StartAt(p.key)
}

func endBound(i int) replica.Bound {
	switch p := positions[i]; {
	case p.top:
		return replica.Top()
	case p.after:
		return replica.EndAt(p.key)
	default:
		return replica.EndBefore(p.key)
	}
}

func partitionGen() *rapid.Generator[replica.Partition] {
	return rapid.Custom(func(t *rapid.T) replica.Partition {
		p := replica.Partition{Key: partitionKey.Draw(t, "key"), Deletion: deletionGen().Draw(t, "deletion"),
			Static: staticGen().Draw(t, "static"), RangeTombstones: rangesGen().Draw(t, "ranges")}
		for _, clustering := range sortedDistinct(t, "clusterings") {
			p.Rows = append(p.Rows, rowGen(clustering).Draw(t, "row"))
		}
		return p
	})
}

// v1PartitionGen draws partitions that digest version 1 can express: no
// static row, range tombstone, liveness, path or complex deletion.
func v1PartitionGen() *rapid.Generator[replica.Partition] {
	return rapid.Custom(func(t *rapid.T) replica.Partition {
		p := replica.Partition{Key: partitionKey.Draw(t, "key"), Deletion: deletionGen().Draw(t, "deletion")}
		for _, clustering := range sortedDistinct(t, "clusterings") {
			r := replica.Row{Clustering: clustering, Deletion: deletionGen().Draw(t, "deletion")}
			for _, column := range sortedDistinct(t, "columns") {
				r.Cells = append(r.Cells, cellGen(column, "").Draw(t, "cell"))
			}
			if r.IsEmpty() {
				r.Deletion = replica.DeletedAt(smallInt.Draw(t, "ts"), positive.Draw(t, "ldt"))
			}
			p.Rows = append(p.Rows, r)
		}
		return p
	})
}

func sortedDistinct(t *rapid.T, label string) []string {
	keys := rapid.SliceOfNDistinct(smallString, 0, 4, rapid.ID).Draw(t, label)
	slices.Sort(keys)
	return keys
}

// reallocate returns a deep copy of p whose slices differ from p's in
// capacity, backing memory and nil-versus-empty, as decided by choose.
func reallocate(p replica.Partition, choose func() bool) replica.Partition {
	q := p
	q.Static = reallocateRow(p.Static, choose)
	q.RangeTombstones = resliced(p.RangeTombstones, choose)
	q.Rows = resliced(p.Rows, choose)
	for i := range q.Rows {
		q.Rows[i] = reallocateRow(q.Rows[i], choose)
	}
	return q
}

func reallocateRow(r replica.Row, choose func() bool) replica.Row {
	r.ComplexDeletions = resliced(r.ComplexDeletions, choose)
	r.Cells = resliced(r.Cells, choose)
	for j := range r.Cells {
		r.Cells[j].Value = resliced(r.Cells[j].Value, choose)
	}
	return r
}

// resliced copies s into new memory: nil or empty when s is empty, with
// spare capacity or without.
func resliced[T any](s []T, choose func() bool) []T {
	if len(s) == 0 && choose() {
		return nil
	}
	spare := 0
	if choose() {
		spare = 3
	}
	return append(make([]T, 0, len(s)+spare), s...)
}

// choices turns a rapid draw into a choose function for reallocate.
func choices(t *rapid.T) func() bool {
	return func() bool { return rapid.Bool().Draw(t, "choice") }
}
