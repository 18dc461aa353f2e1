package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
)

// As TestReadsTimedOutByTheirCallerBeforeTheThresholdLeaveItAlone, for
// the additional-write threshold: a BLOCKING repair round
// that its caller's deadline ended before the threshold is no repair
// latency. Every replica takes 10 ms, writes included, and five reads in
// six end 2 ms into their repair round by their callers' deadlines: the
// 50p fell to 2 ms, and every patient read's repair sent additional
// writes (found by review).
func TestRepairRoundsTimedOutByTheirCallerLeaveTheWriteThresholdAlone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		opts := policy(t, "NEVER")
		aw, err := latency.ParseSpeculativeRetry("50p")
		require.NoError(t, err)
		opts.AdditionalWritePolicy = aw
		e := newEnv(t, coordinator.Config{DefaultTable: opts, ThresholdRefresh: ms(5), Snitch: coordinator.SnitchConfig{Disabled: true},
			HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(10)))
		}
		ts := int64(10)
		stale := func() { // B misses a write: QUORUM's digest from B mismatches
			ts++
			require.NoError(t, e.cluster.SeedOn(tbl, row(key, fmt.Sprint(ts), ts), A, C))
		}
		for range 40 {
			stale()
			res, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			require.True(t, res.Trace.DigestMismatch)
			for range 5 {
				stale()
				ctx, cancel := context.WithTimeout(context.Background(), ms(22))
				res, err = e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				cancel()
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout, "%s", res.Trace)
				require.Len(t, res.Trace.Repaired, 1, "timed out in the repair round\n%s", res.Trace)
			}
			time.Sleep(ms(50))
			settle()
		}
		before := e.c.Metrics().Total
		for range 20 {
			stale()
			_, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			time.Sleep(ms(50))
			settle()
		}
		after := e.c.Metrics().Total
		assert.Less(t, after.AdditionalWrites-before.AdditionalWrites, int64(10),
			"patient reads sent additional writes, though every write takes 10 ms")
	})
}
