package coordinator_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
)

// A repair event says when its write went out and how long it ran, so
// that a tracer can draw an ASYNC repair, which ends after its read
// returned, as a span of its own. B is stale and takes 3 ms to apply.
func TestRepairEventIsTimed(t *testing.T) {
	for _, mode := range []repair.Mode{repair.Blocking, repair.Async} {
		t.Run(mode.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				var events []coordinator.RepairEvent
				opts := policy(t, "NEVER")
				opts.ReadRepair = mode
				e := newEnv(t, coordinator.Config{DefaultTable: opts, Snitch: coordinator.SnitchConfig{Disabled: true},
					Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) {
						mu.Lock()
						defer mu.Unlock()
						events = append(events, ev)
					}}})
				require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), A))
				e.behave(t, B, constant(ms(3)))

				start := time.Now()
				_, _, err := e.read(consistency.Quorum)
				require.NoError(t, err)
				time.Sleep(ms(10))
				settle()

				mu.Lock()
				defer mu.Unlock()
				require.Len(t, events, 1)
				ev := events[0]
				assert.Equal(t, B, ev.To.ID)
				// A's data and B's digest (3 ms), B's data (3 ms), then the write.
				assert.Equal(t, start.Add(ms(6)), ev.Sent)
				assert.Equal(t, ms(3), ev.Took)
			})
		})
	}
}
