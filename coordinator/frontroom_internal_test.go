package coordinator

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A reversed read's short-read rounds each merge rows that come before
// every row merged so far; the rows already merged move only when their
// array is full, about log2(rounds) times, not once a round: 1,000 rounds
// of 10 rows moved them 1,000 times (a reversed read of 16,000 rows over
// 1,600 rounds took 3.4x the same read forwards; now as long).
func TestAReversedShortReadMovesTheMergedRowsLogarithmically(t *testing.T) {
	const rounds, perRound = 1000, 10
	row := func(i int) replica.Row { return replica.NewRow(fmt.Sprintf("r%06d", i), replica.Live("v", "x", 1)) }
	next := rounds * perRound
	continuation := func() replica.Partition {
		rows := make([]replica.Row, perRound)
		for k := range rows {
			rows[k] = row(next - perRound + k)
		}
		next -= perRound
		return replica.NewPartition("k", rows...)
	}
	into, err := repair.Merge(continuation())
	if err != nil {
		t.Fatal(err)
	}
	var rooms partRooms
	moves := 0
	for range rounds - 1 {
		last := &into.Rows[len(into.Rows)-1]
		if into, err = mergeInto(into, continuation(), &rooms); err != nil {
			t.Fatal(err)
		}
		if &into.Rows[len(into.Rows)-1] != last {
			moves++
		}
	}
	if len(into.Rows) != rounds*perRound || into.Rows[0].Clustering != "r000000" {
		t.Fatalf("%d rows from %s; want %d from r000000", len(into.Rows), into.Rows[0].Clustering, rounds*perRound)
	}
	if moves > 20 {
		t.Errorf("the merged rows moved %d times over %d rounds; want at most 20", moves, rounds)
	}
}

// A forward read's short-read rounds each merge rows after every row
// merged so far; those move only when their array is full and it doubles:
// append grew it by a quarter once past 256 rows, moving them 25 times
// over 1,000 rounds of 10 rows, and copying them four times over.
func TestAForwardShortReadMovesTheMergedRowsLogarithmically(t *testing.T) {
	const rounds, perRound = 1000, 10
	next := 0
	continuation := func() replica.Partition {
		rows := make([]replica.Row, perRound)
		for k := range rows {
			rows[k] = replica.NewRow(fmt.Sprintf("r%06d", next+k), replica.Live("v", "x", 1))
		}
		next += perRound
		return replica.NewPartition("k", rows...)
	}
	into, err := repair.Merge(continuation())
	if err != nil {
		t.Fatal(err)
	}
	var rooms partRooms
	moves := 0
	for range rounds - 1 {
		first := &into.Rows[0]
		if into, err = mergeInto(into, continuation(), &rooms); err != nil {
			t.Fatal(err)
		}
		if &into.Rows[0] != first {
			moves++
		}
	}
	if len(into.Rows) != rounds*perRound || into.Rows[len(into.Rows)-1].Clustering != fmt.Sprintf("r%06d", rounds*perRound-1) {
		t.Fatalf("%d rows to %s; want %d", len(into.Rows), into.Rows[len(into.Rows)-1].Clustering, rounds*perRound)
	}
	if moves > 12 {
		t.Errorf("the merged rows moved %d times over %d rounds; want at most 12", moves, rounds)
	}
}

// mergeInto, round after round with the same rooms, is repair.Merge of
// everything merged so far, wherever each continuation lies.
func TestMergeIntoRoundAfterRoundIsMerge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		want, err := repair.Merge(genPartition(t, "a"), genPartition(t, "b"))
		if err != nil {
			t.Fatal(err)
		}
		got := want.Clone()
		var rooms partRooms
		for i := range rapid.IntRange(1, 6).Draw(t, "rounds") {
			c := genPartition(t, fmt.Sprint("c", i))
			if want, err = repair.Merge(want, c); err != nil {
				t.Fatal(err)
			}
			if got, err = mergeInto(got, c, &rooms); err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Fatalf("round %d: %v\nwant %v", i, got, want)
			}
		}
	})
}

// frontRoom.replace is slices.Replace, wherever it replaces and however
// the slice came (its room's tail or not).
func TestFrontRoomReplaceIsReplace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var f frontRoom[int]
		var want []int
		got := []int{}
		for range rapid.IntRange(1, 20).Draw(t, "steps") {
			i := rapid.IntRange(0, len(want)).Draw(t, "i")
			j := rapid.IntRange(i, len(want)).Draw(t, "j")
			v := rapid.SliceOfN(rapid.Int(), 0, 5).Draw(t, "v")
			want = append(append(append([]int{}, want[:i]...), v...), want[j:]...)
			if rapid.IntRange(0, 9).Draw(t, "copy") == 0 {
				got = append([]int(nil), got...) // no longer the room's tail
			}
			got = f.replace(got, i, j, append([]int(nil), v...)...)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%v, want %v", got, want)
			}
		}
	})
}
