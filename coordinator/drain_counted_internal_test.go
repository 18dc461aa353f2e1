package coordinator

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// gatedWrite is writtenAt whose Apply says it began on in, and returns
// once gate is closed.
type gatedWrite struct {
	writtenAt
	in, gate chan struct{}
}

func (g *gatedWrite) Apply(ctx context.Context, _ replica.Mutation) error {
	g.in <- struct{}{}
	select {
	case <-g.gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// DrainRepairs returns with every repair it waited for counted, as its doc
// says: a worker booked its write's end in the count DrainRepairs waits on
// before it counted how the write ended, so a Metrics snapshot taken as it
// returned could show the repair sent and not ended (RepairsSent 1, the
// sum of how repairs ended 0). The count is held back here by holding the
// lock it takes (DropTable's, which a Metrics snapshot holds as well), for
// as long as DrainRepairs does not return: real time, as a goroutine
// waiting on a lock is not durably blocked in a synctest bubble. With the
// repair counted first, DrainRepairs waits for the lock too.
func TestDrainRepairsReturnsWithTheRepairsCounted(t *testing.T) {
	gate := make(chan struct{})
	stale := &gatedWrite{writtenAt{ep: replica.Endpoint{ID: "b"}, ts: 1}, make(chan struct{}, 1), gate}
	reps := []replica.Replica{&writtenAt{ep: replica.Endpoint{ID: "a"}, ts: 2}, stale}
	c, err := New(Config{
		Locator: LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) {
			return reps, consistency.Simple(2), nil
		}),
		DefaultTable: TableOptions{ReadRepair: repair.Async}, RepairWorkers: 1,
	})
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Read(context.Background(), Request{Table: "t", Key: "k", Level: consistency.All})
	require.NoError(t, err)
	tb, ok := c.lookup("t")
	require.True(t, ok)
	<-stale.in // the worker is in b's Apply, past its table's check

	c.dropMu.Lock()
	drained := make(chan error, 1)
	go func() { drained <- c.DrainRepairs(context.Background()) }()
	close(gate)
	select {
	case err = <-drained:
		ended := tb.m.repairsAcked.Load() + tb.m.repairsFailed.Load() + tb.m.repairsDropped.Load() + tb.m.repairsAbandoned.Load()
		assert.Equal(t, int64(1), ended, "DrainRepairs returned with the repair sent and not counted ended")
		c.dropMu.Unlock()
	case <-time.After(time.Second): // it waits for the count, which waits for the lock
		c.dropMu.Unlock()
		err = <-drained
	}
	require.NoError(t, err)
	m := c.Metrics().Total
	assert.Equal(t, int64(1), m.RepairsAcked)
}
