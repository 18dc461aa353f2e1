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
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// SetTableOptions says "Reads already running finish with the options they
// started with". A read that starts under additional_write_policy NEVER
// (newUnackedEnv: A stalls on its repair write from 2 ms) must time out
// without additional writes, even when the table's policy becomes ALWAYS
// while it runs (at 0.5 ms, before its repair round).
func TestRunningReadTakesTheNewAdditionalWritePolicy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newUnackedEnv(t, "NEVER")
		type out struct {
			res coordinator.Result
			err error
		}
		done := make(chan out, 1)
		go func() {
			res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
			done <- out{res, err}
		}()
		time.Sleep(ms(0.5)) // the read's first round is out; its repair round starts at 2 ms
		always, err := latency.ParseSpeculativeRetry("ALWAYS")
		require.NoError(t, err)
		require.NoError(t, e.c.SetTableOptions(tbl, coordinator.TableOptions{AdditionalWritePolicy: always}))
		o := <-done

		assert.False(t, o.res.Trace.AdditionalWrite.Fired,
			"the read started under additional_write_policy NEVER, yet sent additional writes to %s at %v",
			o.res.Trace.AdditionalWrite.To, o.res.Trace.AdditionalWrite.At)
		var rte *consistency.ReadTimeoutError
		assert.ErrorAs(t, o.err, &rte, "under NEVER the stalled repair times the read out")
		m, ok := e.c.TableMetrics(tbl)
		require.True(t, ok)
		assert.Zero(t, m.AdditionalWrites)
	})
}

// The same for the speculative-retry policy: a read of a table under NEVER
// whose options change to a fixed 1ms while it locates its replicas (the
// Locator stands in for a SetTableOptions that runs concurrently between
// the read's start and its decision to speculate) took its options at its
// start (NEVER: its read repair, strategy, tombstone thresholds) but the
// new policy's threshold, and hedged.
func TestRunningReadTakesTheNewSpeculativeRetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		var c *coordinator.Coordinator
		altered := false
		loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			if !altered {
				altered = true
				require.NoError(t, c.SetTableOptions(tbl, policy(t, "1ms")))
			}
			return e.cluster.Locate(table, k)
		})
		var err error
		c, err = coordinator.New(coordinator.Config{Locator: loc, Liveness: e.cluster,
			Tables: map[string]coordinator.TableOptions{tbl: policy(t, "NEVER")}})
		require.NoError(t, err)
		defer c.Close()
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(50))})

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.NoError(t, err)
		assert.False(t, res.Trace.Hedge.Fired, "a read started under NEVER hedged to %s at %v", res.Trace.Hedge.To, res.Trace.Hedge.At)
		assert.False(t, res.Trace.Speculate, "the read's trace says it ran with threshold %v", res.Trace.Threshold)
		settle()
		assert.Zero(t, e.stats(C).Reads, "C, outside the read's contacts, was sent a hedge")
	})
}
