package repair

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Reset leaves nothing of the diffs built in a room, also of one built
// before the last when the room was used again without a Reset: their
// rows, cells and complex deletions hold the merge's clustering and column
// names, which may keep whole replica answers alive (DiffRoom.Reset).
func TestDiffRoomResetKeepsNothingOfItsDiffs(t *testing.T) {
	version := func(rows int, ts int64) replica.Partition {
		rs := make([]replica.Row, rows)
		for i := range rs {
			rs[i] = replica.NewRow(fmt.Sprintf("r%02d", i), replica.Live("x", "value", ts)).
				WithComplexDeletion("m", replica.DeletedAt(ts, 100))
		}
		return replica.NewPartition("k", rs...)
	}
	var r Resolver
	room := new(DiffRoom)
	rooms := []*DiffRoom{nil, room}
	_, diffs, err := r.ResolveValidInRooms(nil, rooms, version(10, 2), version(10, 1))
	require.NoError(t, err)
	require.Len(t, diffs[1].Rows, 10)
	_, diffs, err = r.ResolveValidInRooms(nil, rooms, version(5, 2), version(5, 1)) // no Reset
	require.NoError(t, err)
	require.Len(t, diffs[1].Rows, 5)
	room.Reset()
	for i, row := range room.rows[:cap(room.rows)] {
		require.Zero(t, row, "row %d after Reset", i)
	}
	for i, c := range room.cells[:cap(room.cells)] {
		require.Zero(t, c, "cell %d after Reset", i)
	}
	for i, cd := range room.cds[:cap(room.cds)] {
		require.Zero(t, cd, "complex deletion %d after Reset", i)
	}
}
