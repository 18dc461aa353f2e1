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
	smallInt    = rapid.Int64Range(0, 4)
	positive    = rapid.Int64Range(1, 4)
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

func cellGen(column string) *rapid.Generator[replica.Cell] {
	return rapid.Custom(func(t *rapid.T) replica.Cell {
		ts := smallInt.Draw(t, "ts")
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			return replica.Live(column, value.Draw(t, "value"), ts)
		case 1:
			ttl := int32(rapid.IntRange(1, 3).Draw(t, "ttl"))
			return replica.Expiring(column, value.Draw(t, "value"), ts, ttl, positive.Draw(t, "expiresAt"))
		}
		return replica.Tombstone(column, ts, smallInt.Draw(t, "ldt"))
	})
}

func rowGen(clustering string) *rapid.Generator[replica.Row] {
	return rapid.Custom(func(t *rapid.T) replica.Row {
		r := replica.Row{Clustering: clustering, Deletion: deletionGen().Draw(t, "deletion")}
		for _, column := range sortedDistinct(t, "columns") {
			r.Cells = append(r.Cells, cellGen(column).Draw(t, "cell"))
		}
		if r.IsEmpty() { // Validate rejects empty rows
			r.Deletion = replica.DeletedAt(smallInt.Draw(t, "ts"), positive.Draw(t, "ldt"))
		}
		return r
	})
}

func partitionGen() *rapid.Generator[replica.Partition] {
	return rapid.Custom(func(t *rapid.T) replica.Partition {
		p := replica.Partition{Key: smallString.Draw(t, "key"), Deletion: deletionGen().Draw(t, "deletion")}
		for _, clustering := range sortedDistinct(t, "clusterings") {
			p.Rows = append(p.Rows, rowGen(clustering).Draw(t, "row"))
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
	q.Rows = resliced(p.Rows, choose)
	for i := range q.Rows {
		q.Rows[i].Cells = resliced(q.Rows[i].Cells, choose)
		for j := range q.Rows[i].Cells {
			q.Rows[i].Cells[j].Value = resliced(q.Rows[i].Cells[j].Value, choose)
		}
	}
	return q
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
