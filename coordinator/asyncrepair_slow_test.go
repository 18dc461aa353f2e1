package coordinator_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// tunedApply is a replica whose repair writes take d, heeding their
// context, and are then applied.
type tunedApply struct {
	replica.Replica
	d *atomic.Int64
}

func (s tunedApply) Apply(ctx context.Context, m replica.Mutation) error {
	select {
	case <-time.After(time.Duration(s.d.Load())):
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.Replica.Apply(ctx, m)
}

// tunedBEnv is asyncApplyEnv on two workers, B's writes taking the time
// in d (took at first), with the repair events sent to events.
func tunedBEnv(t *testing.T, took time.Duration, moreOnB []string) (*coordinator.Coordinator, *atomic.Int64, chan coordinator.RepairEvent) {
	d := new(atomic.Int64)
	d.Store(int64(took))
	events := make(chan coordinator.RepairEvent, 32)
	c := asyncApplyEnv(t, observeRepairs(events, coordinator.Config{RepairWorkers: 2}),
		func(r replica.Replica) replica.Replica { return tunedApply{r, d} }, moreOnB...)
	return c, d, events
}

// A replica whose repair writes each take most of the read timeout, and
// return within it, holds one worker at most: C's repair, queued behind
// twelve to B, is applied at 93 ms, when B's first write ends, 91 ms long,
// where both workers went on writing B's and C's waited half a second
// (found by review). B's repairs beyond the one running are dropped with a
// *RepairSlowError. Once a write to B takes less than half the timeout, B
// is written two at a time again.
func TestAsyncRepairsToASlowReplicaHoldOneWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		more := bKeys(12)
		c, d, events := tunedBEnv(t, ms(90), more)
		queueBehindB(t, c, more[:10])

		time.Sleep(ms(100) - ms(26)) // to 100 ms: 13 reads of 2 ms
		settle()
		m := c.Metrics().Total
		assert.Equal(t, int64(3), m.RepairsAcked, "B's first two writes, 91 ms each, and C's: %+v", m)
		assert.Equal(t, int64(10), m.RepairsDropped, "B's others: %+v", m)
		require.Len(t, events, 13)
		for range 13 {
			e := <-events
			var se *coordinator.RepairSlowError
			if e.Dropped {
				require.ErrorAs(t, e.Err, &se, "%+v", e)
				assert.Equal(t, coordinator.RepairSlowError{Endpoint: se.Endpoint, Took: ms(91), Timeout: ms(100)}, *se, "90 ms and B's 1")
				assert.Equal(t, B, se.Endpoint.ID)
			}
		}

		d.Store(int64(ms(10)))
		readAll(t, c, more[10]) // one write to B, 10 ms: no longer slow
		time.Sleep(ms(20))
		readAll(t, c, more[11])
		readAll(t, c, more[0]) // its write begins while the one before runs
		time.Sleep(ms(20))
		repairsEnded(t, c, 6, 10, "two written at once")
	})
}

// A write slow once, long ago, does not make a replica slow: B's write
// took 61 ms of the 100 ms timeout an hour before a burst of ten repairs,
// whose writes take 20 ms, and the two workers write them all. Every one
// that came while the first ran was dropped with a *RepairSlowError
// naming the hour-old 61 ms (nine of the ten; found by review).
func TestAsyncRepairsToAReplicaSlowLongAgoAreWritten(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		more := bKeys(10)
		c, d, events := tunedBEnv(t, ms(60), more)
		require.Equal(t, []string{B}, readAll(t, c, key).Trace.Repaired)
		time.Sleep(time.Hour)
		settle()

		d.Store(int64(ms(20)))
		for _, k := range more {
			require.Equal(t, []string{B}, readAll(t, c, k).Trace.Repaired)
		}
		time.Sleep(time.Second)
		settle()
		m := c.Metrics().Total
		assert.Equal(t, int64(11), m.RepairsAcked, "%+v", m)
		assert.Zero(t, m.RepairsDropped, "%+v", m)
		for len(events) > 0 {
			e := <-events
			assert.False(t, e.Dropped, "%+v", e)
		}
	})
}
