package coordinator_test

import (
	"runtime"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// unwindingLocator panics or calls runtime.Goexit (t.FailNow in a test
// double) for every read.
func unwindingLocator(goexit bool) coordinator.LocatorFunc {
	return func(string, string) ([]replica.Replica, consistency.Replication, error) {
		if goexit {
			runtime.Goexit()
		}
		panic("locator: no ring yet")
	}
}

// A read that a Locator or Liveness view unwinds while it plans has passed
// validation: it counts in Reads and OtherErrors, as one they unwind after
// planning does, in the table the read knew by then (Total alone for an
// unlisted table the Locator did not place). It used to count nowhere.
func TestAReadUnwoundWhilePlanningCountsAsFailed(t *testing.T) {
	for name, goexit := range map[string]bool{"panic": false, "Goexit": true} {
		t.Run("Locator "+name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				for _, listed := range []bool{false, true} {
					cfg := coordinator.Config{Locator: unwindingLocator(goexit)}
					if listed {
						cfg.Tables = map[string]coordinator.TableOptions{tbl: {}}
					}
					c, err := coordinator.New(cfg)
					require.NoError(t, err)
					assert.Equal(t, !goexit, readUnwound(c) != nil, "the panic reaches the caller")
					assertUnwoundOnce(t, c, listed)
					c.Close()
				}
			})
		})
		t.Run("Liveness "+name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				live := &unwindsWhenTold{Liveness: e.cluster, goexit: goexit}
				live.on.Store(true)
				c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: live})
				require.NoError(t, err)
				defer c.Close()
				assert.Equal(t, !goexit, readUnwound(c) != nil, "the panic reaches the caller")
				assertUnwoundOnce(t, c, true) // the Locator placed it
			})
		})
	}
}

// assertUnwoundOnce checks that c counted one read at QUORUM, in
// OtherErrors, in the total and, if inTable, in tbl's metrics.
func assertUnwoundOnce(t *testing.T, c *coordinator.Coordinator, inTable bool) {
	t.Helper()
	m := c.Metrics()
	assert.Equal(t, int64(1), m.Total.ReadsByLevel[consistency.Quorum], "the read counts nowhere")
	assert.Equal(t, int64(1), m.Total.OtherErrors)
	tm, ok := c.TableMetrics(tbl)
	assert.Equal(t, inTable, ok)
	if inTable {
		assert.Equal(t, int64(1), tm.Reads, "not in its table: %+v", tm)
		assert.Equal(t, int64(1), tm.OtherErrors, "%+v", tm)
	}
}
