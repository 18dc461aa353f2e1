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
	if moves := shortReadMoves(t, true); moves > 20 {
		t.Errorf("the merged rows moved %d times over 1,000 rounds; want at most 20", moves)
	}
}

// A forward read's short-read rounds each merge rows after every row
// merged so far; those move only when their array is full and it doubles:
// append grew it by a quarter once past 256 rows, moving them 15 times
// over 1,000 rounds of 10 rows (9 now), and copying them four times over.
func TestAForwardShortReadMovesTheMergedRowsLogarithmically(t *testing.T) {
	if moves := shortReadMoves(t, false); moves > 12 {
		t.Errorf("the merged rows moved %d times over 1,000 rounds; want at most 12", moves)
	}
}

// shortReadMoves merges 1,000 continuations of 10 rows one after another,
// each after the rows merged so far in the read's order (before them, if
// reversed), checks the merge holds every row, and returns how many times
// the rows merged first moved.
func shortReadMoves(t *testing.T, reversed bool) int {
	t.Helper()
	const rounds, perRound = 1000, 10
	next, step := 0, perRound
	if reversed {
		next, step = (rounds-1)*perRound, -perRound
	}
	continuation := func() replica.Partition {
		rows := make([]replica.Row, perRound)
		for k := range rows {
			rows[k] = replica.NewRow(fmt.Sprintf("r%06d", next+k), replica.Live("v", "x", 1))
		}
		next += step
		return replica.NewPartition("k", rows...)
	}
	into, err := repair.Merge(continuation())
	if err != nil {
		t.Fatal(err)
	}
	firstMerged := func() *replica.Row {
		if reversed {
			return &into.Rows[len(into.Rows)-1]
		}
		return &into.Rows[0]
	}
	var rooms partRooms
	moves := 0
	for range rounds - 1 {
		was := firstMerged()
		if into, err = mergeInto(into, continuation(), &rooms); err != nil {
			t.Fatal(err)
		}
		if firstMerged() != was {
			moves++
		}
	}
	if len(into.Rows) != rounds*perRound {
		t.Fatalf("%d rows; want %d", len(into.Rows), rounds*perRound)
	}
	for i, r := range into.Rows {
		if want := fmt.Sprintf("r%06d", i); r.Clustering != want {
			t.Fatalf("row %d is %s; want %s", i, r.Clustering, want)
		}
	}
	return moves
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
