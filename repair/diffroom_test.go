package repair_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Diffs built in rooms are Diff's, whatever the rooms held before (rooms
// used again and again, of every size, reset or not), and share no memory
// with the merge or the versions: writing every value byte of one changes
// neither the merge, nor a version, nor the diff of another room.
func TestResolveValidInRoomsIsMergeAndDiff(t *testing.T) {
	var r repair.Resolver
	rooms := []*repair.DiffRoom{new(repair.DiffRoom), nil, new(repair.DiffRoom), new(repair.DiffRoom)}
	rapid.Check(t, func(t *rapid.T) {
		vs := genVersions(t)
		if rapid.Bool().Draw(t, "reset") {
			for _, room := range rooms {
				if room != nil {
					room.Reset()
				}
			}
		}
		merged, diffs, err := r.ResolveValidInRooms(nil, rooms, vs...)
		if err != nil {
			t.Fatal(err)
		}
		requireResolved(t, vs, merged, diffs)
		keptMerge, keptVersions := merged.Clone(), cloneAll(vs)
		keptDiffs := cloneAll(diffs)
		for i := range diffs {
			scribble(diffs[i])
			for j := range diffs {
				if j != i {
					requireEqual(t, "another diff", keptDiffs[j], diffs[j])
				}
			}
			diffs[i] = keptDiffs[i]
		}
		requireEqual(t, "merge", keptMerge, merged)
		for i := range vs {
			requireEqual(t, "version", keptVersions[i], vs[i])
		}
	})
}

// A room serves its next diff of no more rows, cells and bytes without
// allocating, and Reset keeps its memory.
func TestDiffRoomReusesItsMemory(t *testing.T) {
	stale := replica.NewPartition("k")
	var rows []replica.Row
	for i := range 100 {
		rows = append(rows, replica.NewRow(string(rune('a'+i%26))+string(rune('a'+i/26)), replica.Live("v", "value of some length", 2)))
	}
	fresh := replica.NewPartition("k", rows...)
	var r repair.Resolver
	rooms := []*repair.DiffRoom{new(repair.DiffRoom), new(repair.DiffRoom)}
	if _, _, err := r.ResolveValidInRooms(nil, rooms, fresh, stale); err != nil {
		t.Fatal(err)
	}
	size := rooms[1].Size()
	if size == 0 {
		t.Fatal("the stale version's diff was not built in its room")
	}
	got := testing.AllocsPerRun(20, func() {
		rooms[1].Reset()
		if _, diffs, err := r.ResolveValidInRooms(nil, rooms, fresh, stale); err != nil || len(diffs[1].Rows) != 100 {
			t.Fatalf("%d rows, %v", len(diffs[1].Rows), err)
		}
	})
	want := testing.AllocsPerRun(20, func() { _, _, _ = r.ResolveValidIn(nil, fresh, fresh) })
	if got > want {
		t.Errorf("a diff in a used room: %v allocations, a resolve with nothing to diff %v", got, want)
	}
	if rooms[1].Size() != size {
		t.Errorf("the room grew from %d to %d bytes", size, rooms[1].Size())
	}
}

// Size counts all the memory a room holds, the complex deletions' too: a
// room that built a diff of more of them holds more (a caller pooling rooms
// by Size would otherwise keep a room of many complex deletions as small).
func TestDiffRoomSizeCountsItsComplexDeletions(t *testing.T) {
	withDeletions := func(n int) replica.Partition {
		row := replica.NewRow("r")
		for i := range n {
			row = row.WithComplexDeletion(fmt.Sprintf("m%d", i), replica.DeletedAt(1, 100))
		}
		return replica.NewPartition("k", row)
	}
	var r repair.Resolver
	stale := replica.NewPartition("k")
	sizes := make([]int, 2)
	for i, n := range []int{1, 8} {
		room := new(repair.DiffRoom)
		rooms := []*repair.DiffRoom{nil, room}
		_, diffs, err := r.ResolveValidInRooms(nil, rooms, withDeletions(n), stale)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(diffs[1].Rows[0].ComplexDeletions); got != n {
			t.Fatalf("a diff of %d complex deletions, want %d", got, n)
		}
		sizes[i] = room.Size()
	}
	if sizes[1] <= sizes[0] {
		t.Errorf("a room of 8 complex deletions holds %d bytes, one of 1 holds %d", sizes[1], sizes[0])
	}
}
