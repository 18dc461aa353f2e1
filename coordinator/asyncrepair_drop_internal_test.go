package coordinator

import (
	"context"
	"runtime"
	"testing"
	"testing/synctest"
	"weak"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// writtenAt answers every key with one cell written at ts and drops what
// it is sent.
type writtenAt struct {
	ep replica.Endpoint
	ts int64
}

func (w *writtenAt) Endpoint() replica.Endpoint { return w.ep }

func (w *writtenAt) Read(_ context.Context, cmd replica.Command) (replica.Response, error) {
	return cmd.Respond(replica.NewPartition(cmd.Key, replica.NewRow("r", replica.Live("v", "x", w.ts))))
}

func (w *writtenAt) Apply(context.Context, replica.Mutation) error { return nil }

// A dropped table whose reads were repaired in the background is garbage:
// the repair queue's count of writes in flight by table kept every such
// table, 4.1 KiB each, for as long as the coordinator ran (83 MiB after
// 20,000 daily tables).
func TestADroppedTableRepairedAsyncIsCollected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reps := []replica.Replica{
			&writtenAt{ep: replica.Endpoint{ID: "a"}, ts: 2},
			&writtenAt{ep: replica.Endpoint{ID: "b"}, ts: 1}, // stale: repaired
		}
		c, err := New(Config{
			Locator: LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) {
				return reps, consistency.Simple(2), nil
			}),
			DefaultTable: TableOptions{ReadRepair: repair.Async},
		})
		require.NoError(t, err)
		defer c.Close()
		_, err = c.Read(context.Background(), Request{Table: "daily", Key: "k", Level: consistency.All})
		require.NoError(t, err)
		synctest.Wait() // the repair is written
		tm, _ := c.TableMetrics("daily")
		require.Equal(t, int64(1), tm.RepairsAcked)

		tb, ok := c.lookup("daily")
		require.True(t, ok)
		gone := weak.Make(tb)
		tb = nil
		c.DropTable("daily")
		runtime.GC()
		require.True(t, gone.Value() == nil, "the dropped table is still reachable")
	})
}
