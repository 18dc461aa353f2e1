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
)

// A read whose caller's own deadline ends it before the threshold tells
// nothing of the tail, as one its caller cancels that soon does not (see
// TestReadsCancelledPastTheThresholdHoldItUp): recorded at its timeout, a
// latency no replica took, it pulls a percentile threshold down to the
// callers' deadlines. Here every replica answers in 10 ms and five reads
// in six come from callers that give up after 2 ms: the 75p fell to
// 2 ms, and every read of the patient callers hedged, in vain (found by
// review). The same holds of callers that cancel after 2 ms
// (cancelledInTheTail: a round cancelled sooner than the tail is left out).
func TestReadsTimedOutByTheirCallerBeforeTheThresholdLeaveItAlone(t *testing.T) {
	for _, c := range []struct {
		name   string
		giveUp func() (context.Context, context.CancelFunc)
		// timedOut: the read fails with a ReadTimeoutError, else with
		// context.Canceled.
		timedOut bool
	}{
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), ms(2))
		}, true},
		{"cancellation", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			stop := time.AfterFunc(ms(2), cancel)
			return ctx, func() { stop.Stop(); cancel() }
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "75p"), ThresholdRefresh: ms(5),
					HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
				for _, id := range []string{A, B, C} {
					e.behave(t, id, constant(ms(10)))
				}
				for range 100 {
					_, _, err := e.read(consistency.Quorum)
					require.NoError(t, err)
					for range 5 {
						ctx, cancel := c.giveUp()
						_, err = e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
						cancel()
						if timeout := (*consistency.ReadTimeoutError)(nil); c.timedOut {
							require.ErrorAs(t, err, &timeout)
						} else {
							require.ErrorIs(t, err, context.Canceled)
						}
					}
					settle()
				}
				time.Sleep(ms(10))
				before := e.c.Metrics().Total
				for range 20 {
					_, _, err := e.read(consistency.Quorum)
					require.NoError(t, err)
					settle()
				}
				after := e.c.Metrics().Total
				th, _ := e.c.TableMetrics(tbl)
				assert.Greater(t, th.Threshold, ms(5), "every read that finished took 10 ms")
				assert.Less(t, after.SpeculativeRetries-before.SpeculativeRetries, int64(10),
					"reads of patient callers hedged at %v, though every replica answers in 10 ms", th.Threshold)
			})
		})
	}
}
