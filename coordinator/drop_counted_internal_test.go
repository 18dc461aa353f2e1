package coordinator

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// A repair a full ASYNC queue drops is counted dropped before its end is
// booked in the count DrainRepairs waits on, as every other end is (see
// settle): the drop booked its end first, so a DrainRepairs that returned
// as the queued repairs ahead of it were written could leave a Metrics
// snapshot with the repair sent and not ended. Here the queue's one slot
// holds a job already booked, standing for the queued repairs written
// between the drop's try and its booking, and the drop's count is held
// back by holding the lock it takes (DropTable's, as in
// TestDrainRepairsReturnsWithTheRepairsCounted): real time, as a goroutine
// waiting on a lock is not durably blocked in a synctest bubble.
func TestAFullQueuesDropIsCountedBeforeDrainRepairsReturns(t *testing.T) {
	c, err := New(Config{RepairQueue: 1, RepairWorkers: 1,
		Locator: LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) {
			return nil, consistency.Replication{}, nil
		})})
	require.NoError(t, err)
	defer c.Close()
	tb := c.table("t")
	q := &c.repairs
	q.start.Do(func() { q.jobs = make(chan repairJob, 1) }) // no workers: the slot stays full
	q.jobs <- repairJob{t: tb}
	defer func() { <-q.jobs }() // booked already: not Close's to count

	c.dropMu.Lock()
	queued := make(chan bool, 1)
	go func() { queued <- q.enqueue(repairJob{t: tb, labels: context.Background()}) }()
	for q.idleSignal() == nil {
		runtime.Gosched() // until the drop is pending, and waits for the lock to count it
	}
	drained := make(chan error, 1)
	go func() { drained <- c.DrainRepairs(context.Background()) }()
	select {
	case err = <-drained:
		assert.Equal(t, int64(1), tb.m.repairsDropped.Load(), "DrainRepairs returned with the drop not counted")
		c.dropMu.Unlock()
	case <-time.After(time.Second): // it waits for the count, which waits for the lock
		c.dropMu.Unlock()
		err = <-drained
	}
	require.NoError(t, err)
	assert.False(t, <-queued)
	assert.Equal(t, int64(1), tb.m.repairsDropped.Load())
}
