package coordinator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// roomyAnswers is an adapter that answers as Respond does, but hands out
// its answer's rows and range tombstones as windows on a longer backing
// array, with room to grow into what follows them, as an adapter slicing
// its own storage would.
type roomyAnswers struct{ replica.Replica }

func (r roomyAnswers) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := r.Replica.Read(ctx, cmd)
	p := &resp.Partition
	rows := append(p.Rows[:len(p.Rows):len(p.Rows)], make([]replica.Row, 8)...)
	p.Rows = rows[:len(p.Rows)]
	rts := append(p.RangeTombstones[:len(p.RangeTombstones):len(p.RangeTombstones)], make([]replica.RangeTombstone, 8)...)
	p.RangeTombstones = rts[:len(p.RangeTombstones)]
	return resp, err
}

// A Result's rows and range tombstones have no room to grow: a client
// joining the rows of an IN query's results into one list, by appending to
// the first, must not write over what the replica's answer was cut from.
// Respond caps its windows; the coordinator caps what any adapter answers.
func TestAResultHasNoRoomToGrowIntoAReplicasMemory(t *testing.T) {
	cl := instantCluster(t)
	rows := make([]replica.Row, 10)
	for i := range rows {
		rows[i] = replica.NewRow(fmt.Sprintf("r%02d", i), replica.Live("v", "one", 1000))
	}
	require.NoError(t, cl.Seed(tbl, replica.NewPartition(key, rows...)))
	c, err := coordinator.New(coordinator.Config{Locator: wrapping(cl, 3, func(r replica.Replica) replica.Replica { return roomyAnswers{r} }),
		Liveness: cl, LocalDatacenter: "dc1"})
	require.NoError(t, err)
	defer c.Close()
	slice := []replica.Slice{{Start: replica.StartAt("r02"), End: replica.EndAt("r04")}}
	for _, q := range []replica.Query{{Limit: 3}, {Slices: slice}} {
		for _, level := range []consistency.Level{consistency.One, consistency.Quorum} {
			res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level, Query: q})
			require.NoError(t, err)
			p := res.Partition
			require.Len(t, p.Rows, 3)
			require.Equal(t, len(p.Rows), cap(p.Rows), "%v at %v: the result's rows have room to grow", q, level)
			require.Equal(t, len(p.RangeTombstones), cap(p.RangeTombstones), "%v at %v: the result's range tombstones have room to grow", q, level)
		}
	}
}
