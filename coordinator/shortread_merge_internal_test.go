package coordinator

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// mergeInto is repair.Merge for any partition merged into a merge's
// result, wherever it lies against it: what it does not touch is kept,
// what it does is merged, and range tombstones come out canonical. It
// changes neither argument's data but into's arrays.
func TestMergeIntoIsMerge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		into, err := repair.Merge(genPartition(t, "a"), genPartition(t, "b"))
		if err != nil {
			t.Fatal(err)
		}
		c := genPartition(t, "c")
		if rapid.Bool().Draw(t, "canonical") {
			if c, err = repair.Merge(c); err != nil {
				t.Fatal(err)
			}
		}
		want, err := repair.Merge(into, c)
		if err != nil {
			t.Fatal(err)
		}
		cBefore := c.Clone()
		got, err := mergeInto(into.Clone(), c, new(partRooms))
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(want) {
			t.Fatalf("mergeInto(%v,\n %v)\n= %v\nwant %v", into, c, got, want)
		}
		if !c.Equal(cBefore) {
			t.Fatalf("mergeInto changed its continuation")
		}
	})
}

// Clustering keys and range bounds from a small alphabet, with "a\x00"
// for the key whose start is the position just after "a".
var (
	genKey = rapid.SampledFrom([]string{"", "a", "a\x00", "b", "c", "d", "e"})
	genTS  = rapid.Int64Range(1, 4)
)

func genPartition(t *rapid.T, label string) replica.Partition {
	var rows []replica.Row
	for _, k := range rapid.SliceOfDistinct(genKey, rapid.ID[string]).Draw(t, label+" keys") {
		rows = append(rows, genRow(t, k))
	}
	p := replica.NewPartition("k", rows...).WithRangeTombstones(genRanges(t)...)
	if rapid.IntRange(0, 3).Draw(t, label+" deleted") == 0 {
		p = p.WithDeletion(replica.DeletedAt(genTS.Draw(t, "pdts"), 5))
	}
	if rapid.Bool().Draw(t, label+" static") {
		p = p.WithStatic(replica.Live("s", "v", genTS.Draw(t, "sts")))
	}
	return p
}

func genRow(t *rapid.T, k string) replica.Row {
	var cells []replica.Cell
	for _, col := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"x", "y"}), 0, 2, rapid.ID[string]).Draw(t, "cols") {
		if rapid.Bool().Draw(t, "tombstone") {
			cells = append(cells, replica.Tombstone(col, genTS.Draw(t, "cts"), 5))
		} else {
			cells = append(cells, replica.Live(col, "v", genTS.Draw(t, "cts")))
		}
	}
	r := replica.NewRow(k, cells...)
	if rapid.Bool().Draw(t, "inserted") {
		r = r.WithLiveness(replica.Inserted(genTS.Draw(t, "lts")))
	}
	if rapid.IntRange(0, 2).Draw(t, "row deleted") == 0 || r.IsEmpty() {
		r = r.WithDeletion(replica.DeletedAt(genTS.Draw(t, "rdts"), 5))
	}
	return r
}

// genRanges draws ordered range tombstones that may touch, each bound at
// a position before or after a key, in either of its forms.
func genRanges(t *rapid.T) []replica.RangeTombstone {
	const top = 10 // positions 0..9: before and after "", "a", "b", "c", "d"
	var rts []replica.RangeTombstone
	at := 0
	for range rapid.IntRange(0, 3).Draw(t, "ranges") {
		start := rapid.IntRange(at, top).Draw(t, "start")
		if start >= top {
			break
		}
		end := rapid.IntRange(start+1, top).Draw(t, "end")
		rts = append(rts, replica.NewRangeTombstone(genBound(t, start).AsStart(), genBound(t, end).AsEnd(),
			replica.DeletedAt(genTS.Draw(t, "rts"), 5)))
		at = end
	}
	return rts
}

func genBound(t *rapid.T, i int) replica.Bound {
	if i == 10 {
		return replica.Top()
	}
	k := []string{"", "a", "b", "c", "d"}[i/2]
	switch {
	case i%2 == 0:
		return replica.StartAt(k)
	case rapid.Bool().Draw(t, "plain"):
		return replica.StartAfter(k)
	}
	return replica.StartAt(k + "\x00")
}
