package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// hangsOnApply answers reads, but its writes ignore their context and
// return only after an hour.
type hangsOnApply struct{ replica.Replica }

func (r hangsOnApply) Apply(ctx context.Context, m replica.Mutation) error {
	time.Sleep(time.Hour)
	return r.Replica.Apply(context.Background(), m)
}

// A BLOCKING repair write to a replica that became backlogged after it
// answered the read is refused like a read: it fails at once, as a failed
// repair write naming the backlog, and is counted as failed, so that the
// repairs still add up.
func TestBackloggedRepairWriteFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C)) // B is stale
		c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, ReadTimeout: ms(10), MaxAbandonedPerReplica: 1,
			Locator: wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica {
				if r.Endpoint().ID == B {
					return hangsOnApply{r}
				}
				return r
			}),
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Blocking, SpeculativeRetry: policy(t, "NEVER").SpeculativeRetry}})
		require.NoError(t, err)
		defer c.Close()
		req := coordinator.Request{Table: tbl, Key: key, Level: consistency.All}

		done := make(chan error)
		go func() { // its write to B hangs, and is abandoned at 10 ms
			_, err := c.Read(context.Background(), req)
			done <- err
		}()
		time.Sleep(ms(8.5)) // B answers this read's reads by 10.5 ms, before its write
		res, err := c.Read(context.Background(), req)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, <-done, &timeout)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		var write *coordinator.RepairWriteError
		require.ErrorAs(t, failure.Reasons[B], &write, "%v", res.Trace)
		var backlog *coordinator.BacklogError
		assert.ErrorAs(t, write, &backlog)
		last := res.Trace.Requests[len(res.Trace.Requests)-1]
		assert.Equal(t, coordinator.KindRepair, last.Kind)
		assert.Equal(t, coordinator.Failed, last.Outcome)

		time.Sleep(2 * time.Hour) // the hung writes return
		settle()
		m := c.Metrics().Total
		assert.Equal(t, int64(2), m.RepairsSent)
		assert.Equal(t, int64(1), m.RepairsFailed, "the refused write")
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned, "%v", c.Metrics())
	})
}
