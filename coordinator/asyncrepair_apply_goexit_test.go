package coordinator_test

import (
	"context"
	"runtime"
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

// goexitApply is a replica whose Apply calls runtime.Goexit (t.FailNow in
// a test double).
type goexitApply struct{ replica.Replica }

func (goexitApply) Apply(context.Context, replica.Mutation) error {
	runtime.Goexit()
	return nil
}

// panicApply is a replica whose Apply panics.
type panicApply struct{ replica.Replica }

func (panicApply) Apply(context.Context, replica.Mutation) error { panic("apply") }

// PanicError's doc: "the failure recorded for a replica whose Read or
// Apply panicked, or called runtime.Goexit". An ASYNC repair whose
// replica's Apply panics is booked failed (RepairsSent = Acked + Failed +
// Dropped + Abandoned once every repair has ended); one whose Apply calls
// Goexit must be booked the same way (it was lost from the metrics, and
// Close's count of repairs in flight kept it for good).
func TestAsyncRepairWhoseApplyCallsGoexitIsBookedFailed(t *testing.T) {
	for _, tc := range []struct {
		name string
		wrap func(replica.Replica) replica.Replica
	}{
		{"panic", func(r replica.Replica) replica.Replica { return panicApply{r} }},
		{"goexit", func(r replica.Replica) replica.Replica { return goexitApply{r} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A, C))
				c, err := coordinator.New(coordinator.Config{
					Locator:  wrapID(e.cluster, B, tc.wrap),
					Liveness: e.cluster, RepairWorkers: 1,
					Snitch:       coordinator.SnitchConfig{Disabled: true},
					DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async},
				})
				require.NoError(t, err)
				_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
				require.NoError(t, err)
				time.Sleep(time.Second)
				synctest.Wait()
				require.NoError(t, c.Close())
				m := c.Metrics().Total
				assert.Equal(t, int64(1), m.RepairsSent)
				assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned,
					"a repair that ended is booked: %+v", m)
				assert.Equal(t, int64(1), m.RepairsFailed, "%+v", m)
			})
		})
	}
}
