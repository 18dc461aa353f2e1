package repair_test

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A run of merges through one Resolver, a few Blocks and a few rooms, each
// merge given fresh versions and parts of the last merge built in its
// Blocks (whole, restricted, limited), returns Merge and Diff every time;
// and what a caller may keep does not change under the merges that follow:
// the diffs ResolveIn returns for good, and a room's diff until the room
// is used again. Deep copies made when each was returned are the oracle.
func TestMergesThroughReusedMemoryKeepWhatTheyReturned(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var r repair.Resolver
		blocks := []*repair.Blocks{new(repair.Blocks), new(repair.Blocks)}
		rooms := []*repair.DiffRoom{new(repair.DiffRoom), new(repair.DiffRoom), nil, new(repair.DiffRoom)}
		last := make([]replica.Partition, len(blocks)) // per Blocks, the merge built there last
		type kept struct {
			what       string
			got, clone replica.Partition
		}
		var forGood []kept      // ResolveIn's diffs: the caller's to keep
		var inRooms []kept      // the last diffs built in rooms, valid until their room is used again
		roomOf := map[int]int{} // index in inRooms -> room
		for step := range rapid.IntRange(1, 8).Draw(t, "steps") {
			bi := rapid.IntRange(0, len(blocks)-1).Draw(t, "blocks")
			b := blocks[bi]
			vs := genSequenceVersions(t)
			if len(last[bi].Rows) > 0 || !last[bi].Static.IsEmpty() {
				for range rapid.IntRange(0, 2).Draw(t, "parts of the last merge") {
					at := rapid.IntRange(0, len(vs)).Draw(t, "at")
					vs = append(vs[:at], append([]replica.Partition{partOf(t, last[bi])}, vs[at:]...)...)
				}
			}
			want := merge(t, vs...)
			wantDiffs := make([]replica.Partition, len(vs))
			for i := range vs {
				wantDiffs[i], _ = repair.Diff(want, vs[i])
			}
			var merged replica.Partition
			var diffs []replica.Partition
			var err error
			how := rapid.SampledFrom([]string{"ResolveIn", "ResolveValidIn", "MergeIn", "MergeValidIn", "ResolveValidInRooms"}).Draw(t, "how")
			if how == "ResolveValidInRooms" {
				for i := range inRooms { // the rooms are used again: what they held is spent
					if roomOf[i] < len(vs) {
						requireEqual(t, inRooms[i].what+", before its room was used again", inRooms[i].clone, inRooms[i].got)
					}
				}
			}
			switch how {
			case "ResolveIn":
				merged, diffs, err = r.ResolveIn(b, vs...)
			case "ResolveValidIn":
				merged, diffs, err = r.ResolveValidIn(b, vs...)
			case "MergeIn":
				merged, err = r.MergeIn(b, vs...)
			case "MergeValidIn":
				merged, err = r.MergeValidIn(b, vs...)
			default:
				merged, diffs, err = r.ResolveValidInRooms(b, rooms, vs...)
			}
			if err != nil {
				t.Fatalf("step %d, %s: %v", step, how, err)
			}
			requireEqual(t, fmt.Sprintf("step %d, %s: merge", step, how), want, merged)
			if diffs != nil {
				for i := range vs {
					requireEqual(t, fmt.Sprintf("step %d, %s: diff %d", step, how, i), wantDiffs[i], diffs[i])
				}
			}
			switch how {
			case "ResolveIn", "ResolveValidIn":
				for i := range diffs {
					forGood = append(forGood, kept{fmt.Sprintf("step %d's diff %d", step, i), diffs[i], diffs[i].Clone()})
				}
			case "ResolveValidInRooms":
				next, nextRoom := []kept(nil), map[int]int{}
				for i := range inRooms {
					if room := roomOf[i]; room >= len(vs) { // not used: still valid
						nextRoom[len(next)] = room
						next = append(next, inRooms[i])
					}
				}
				for i := range diffs {
					if i < len(rooms) && rooms[i] != nil {
						nextRoom[len(next)] = i
						next = append(next, kept{fmt.Sprintf("step %d's diff %d in room %d", step, i, i), diffs[i], diffs[i].Clone()})
					} else {
						forGood = append(forGood, kept{fmt.Sprintf("step %d's diff %d", step, i), diffs[i], diffs[i].Clone()})
					}
				}
				inRooms, roomOf = next, nextRoom
			}
			last[bi] = merged
			for _, k := range forGood {
				requireEqual(t, fmt.Sprintf("after step %d, %s", step, k.what), k.clone, k.got)
			}
		}
		for _, k := range inRooms {
			requireEqual(t, "at the end, "+k.what, k.clone, k.got)
		}
	})
}

// genSequenceVersions draws one to three versions, at times wide ones:
// enough rows and cells for a merge to outgrow its Blocks' and its size
// estimate's blocks.
func genSequenceVersions(t *rapid.T) []replica.Partition {
	n := rapid.IntRange(1, 3).Draw(t, "versions")
	vs := make([]replica.Partition, n)
	for i := range vs {
		if rapid.IntRange(0, 3).Draw(t, "wide") == 0 {
			vs[i] = genWideVersion(t)
		} else {
			vs[i] = genVersion(t, "v")
		}
	}
	return vs
}

// genWideVersion draws a version of up to 40 rows, from 60 keys.
func genWideVersion(t *rapid.T) replica.Partition {
	keys := rapid.SliceOfNDistinct(rapid.IntRange(0, 59), 0, 40, rapid.ID[int]).Draw(t, "wide rows")
	rows := make([]replica.Row, len(keys))
	for i, k := range keys {
		rows[i] = anyTime.row(t, genKey(k))
	}
	p := replica.NewPartition("k", rows...).WithDeletion(anyTime.deletion(t))
	if rapid.Bool().Draw(t, "static") {
		anyTime.contents(t, &p.Static)
	}
	if rapid.IntRange(0, 2).Draw(t, "respond") == 0 {
		columns := []string{"x", "z"} // apart: a row holding y is copied, one without it shared
		if rapid.Bool().Draw(t, "other columns") {
			columns = rapid.SliceOfDistinct(genColumn, rapid.ID[string]).Draw(t, "columns")
		}
		cmd := replica.Command{Key: p.Key, GCBefore: math.MinInt64, Columns: columns}
		if a, err := cmd.Respond(p); err == nil {
			p = a.Partition
		}
	}
	return p
}

// partOf returns p whole, restricted to some slices, limited, or both, and
// at times a replica's answer from it to a read of some columns, which
// holds some of p's cells where they are and copies of others.
func partOf(t *rapid.T, p replica.Partition) replica.Partition {
	if rapid.Bool().Draw(t, "restrict") {
		var slices []replica.Slice
		for _, rt := range anyTime.ranges(t) {
			slices = append(slices, replica.Slice{Start: rt.Start, End: rt.End})
		}
		if q := (replica.Query{Slices: slices}); q.Validate() == nil {
			p = p.Restrict(q)
		}
	}
	if rapid.Bool().Draw(t, "limit") {
		q := replica.Query{Limit: rapid.IntRange(1, 5).Draw(t, "limit"), Reversed: rapid.Bool().Draw(t, "reversed")}
		p, _ = p.Limit(q, rapid.Int64Range(0, 6).Draw(t, "now"))
	}
	return p
}

// A replica's answer to a read of some columns, from a merge built in
// Blocks, merged in the same Blocks with a version that adds cells to its
// first rows, is Merge of the two: the answer holds some rows' cells where
// the merge built them, which the second merge must not build over.
func TestAnswersFromAMergeThroughOneBlocksAreMerge(t *testing.T) {
	var r repair.Resolver
	rapid.Check(t, func(t *rapid.T) {
		var b repair.Blocks
		n := rapid.IntRange(3, 60).Draw(t, "rows")
		rows := make([]replica.Row, n)
		for i := range rows {
			var cells []replica.Cell
			for _, c := range rapid.SliceOfNDistinct(genColumn, 1, 3, rapid.ID[string]).Draw(t, "columns") {
				cells = append(cells, replica.Live(c, fmt.Sprint(c, i), 1))
			}
			rows[i] = replica.NewRow(genKey(i), cells...)
		}
		p, err := r.MergeIn(&b, replica.NewPartition("k", rows...))
		if err != nil {
			t.Fatal(err)
		}
		columns := []string{"x", "z"}
		if rapid.Bool().Draw(t, "other columns") {
			columns = rapid.SliceOfDistinct(genColumn, rapid.ID[string]).Draw(t, "selected")
		}
		a, err := replica.Command{Key: "k", Columns: columns}.Respond(p)
		if err != nil {
			t.Fatal(err)
		}
		var added []replica.Row
		for i := range rapid.IntRange(1, n).Draw(t, "rows added to") {
			added = append(added, replica.NewRow(genKey(i), replica.Live("w", fmt.Sprint("w", i), 2)))
		}
		w := replica.NewPartition("k", added...)
		want := merge(t, a.Partition, w)
		got, err := r.MergeIn(&b, a.Partition, w)
		if err != nil {
			t.Fatal(err)
		}
		requireEqual(t, "the merge of an answer from the last merge", want, got)
	})
}
