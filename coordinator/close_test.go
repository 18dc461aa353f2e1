package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

// Close waits at most the read timeout for an ASYNC repair whose replica
// ignores its context: it abandons the repair to that replica, as a read
// abandons a request that hangs, and counts it.
func TestCloseAbandonsARepairStuckInAReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Async)
		// B answers its reads by 2 ms, then stalls for an hour, deaf to
		// cancellation: its repair write, queued at 2 ms, never returns.
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)), Fault: replicatest.IgnoresContext(),
			Pauses: []replicatest.Window{{Start: ms(2), End: time.Hour}}})
		_, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		synctest.Wait() // the repair is in B's Apply

		start := time.Now()
		require.NoError(t, e.c.Close())
		assert.Equal(t, 5*time.Second, time.Since(start), "Close returns after the read timeout")
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsAbandoned)
		assert.Zero(t, m.RepairsAcked+m.RepairsFailed, "the abandoned repair is not booked again when it returns")
		time.Sleep(time.Hour)
		synctest.Wait()
		assert.Zero(t, e.c.Metrics().Total.RepairsAcked+e.c.Metrics().Total.RepairsFailed)
	})
}
