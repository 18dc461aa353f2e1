package coordinator_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// unwindsWhenTold is a liveness view that, once told to, panics or calls
// runtime.Goexit (t.FailNow in a test double).
type unwindsWhenTold struct {
	coordinator.Liveness
	goexit bool
	on     atomic.Bool
}

func (l *unwindsWhenTold) IsAlive(ep replica.Endpoint) bool {
	if l.on.Load() {
		if l.goexit {
			runtime.Goexit()
		}
		panic("liveness: unknown endpoint " + ep.ID)
	}
	return l.Liveness.IsAlive(ep)
}

// tellsOnFirstRead tells its liveness view to unwind when its first read
// request arrives: after planning, before the read speculates.
type tellsOnFirstRead struct {
	replica.Replica
	live  *unwindsWhenTold
	armed *atomic.Bool
}

func (r tellsOnFirstRead) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if r.armed.CompareAndSwap(true, false) {
		r.live.on.Store(true)
	}
	return r.Replica.Read(ctx, cmd)
}

// errorsOf sums a table's error counts.
func errorsOf(m coordinator.TableMetrics) int64 {
	return m.Unavailable + m.Timeouts + m.Failures + m.Cancelled + m.OtherErrors
}

// A liveness view that panics or calls Goexit when a read speculates, after
// planning, ends the read as it does at planning: a panic reaches Read's
// caller. The read, counted once planned, must count as failed (in
// OtherErrors), not as a success; its requests end, and the coordinator
// goes on reading.
func TestALivenessThatUnwindsWhileSpeculatingFailsTheRead(t *testing.T) {
	for name, goexit := range map[string]bool{"panic": false, "Goexit": true} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				e.behave(t, B, constant(ms(50))) // A and B contacted; the read speculates at 5 ms
				live := &unwindsWhenTold{Liveness: e.cluster, goexit: goexit}
				var armed atomic.Bool
				armed.Store(true)
				c, err := coordinator.New(coordinator.Config{
					Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return tellsOnFirstRead{r, live, &armed} }),
					Liveness: live, Snitch: coordinator.SnitchConfig{Disabled: true}, DefaultTable: policy(t, "5ms"),
					HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
				})
				require.NoError(t, err)
				defer c.Close()
				recovered := readUnwound(c)
				assert.Equal(t, !goexit, recovered != nil, "the panic reaches the caller, as at planning")
				m := c.Metrics()
				require.Equal(t, int64(1), m.Total.Reads)
				assert.Equal(t, int64(1), m.Total.OtherErrors, "the read counts as neither failed nor succeeded:\n%v", m)
				assert.Equal(t, m.Total.SpeculativeRetries, m.Total.HedgeWins+m.Total.FailedSpeculations)
				for _, r := range m.Replicas {
					assert.Zero(t, r.Outstanding, "%s's request is still counted in flight", r.Endpoint.ID)
				}

				live.on.Store(false)
				_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				require.NoError(t, err, "the coordinator reads on")
				m = c.Metrics()
				assert.Equal(t, int64(2), m.Total.Reads)
				assert.Equal(t, int64(1), errorsOf(m.Total))
			})
		})
	}
}
