package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// Reads already running finish with the options they started with, a read
// of a table the coordinator keeps no state for yet too: it starts with
// Config.DefaultTable's (NEVER here), and a SetTableOptions to a fixed 1ms
// made while it runs (its Locator stands in for one made concurrently, as
// in TestRunningReadTakesTheNewSpeculativeRetry) does not change them. The
// read took the table's new options when it was placed, and hedged (found
// by review).
func TestRunningReadOfANewTableKeepsItsStartingOptions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		var c *coordinator.Coordinator
		altered := false
		var before coordinator.TableOptions
		loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			if !altered {
				altered = true
				before = c.TableOptions(tbl)
				require.NoError(t, c.SetTableOptions(tbl, policy(t, "1ms")))
			}
			return e.cluster.Locate(table, k)
		})
		var err error
		c, err = coordinator.New(coordinator.Config{Locator: loc, Liveness: e.cluster, DefaultTable: policy(t, "NEVER")})
		require.NoError(t, err)
		defer c.Close()
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(50))})

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.NoError(t, err)
		assert.Equal(t, policy(t, "NEVER"), before, "the options the read started with")
		assert.False(t, res.Trace.Hedge.Fired, "a read started under NEVER hedged to %s at %v", res.Trace.Hedge.To, res.Trace.Hedge.At)
		assert.False(t, res.Trace.Speculate, "the read's trace says it ran with threshold %v", res.Trace.Threshold)
		settle()
		assert.Zero(t, e.stats(C).Reads, "C, outside the read's contacts, was sent a hedge")
	})
}
