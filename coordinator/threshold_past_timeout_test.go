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

// DESIGN 2.4: the overload switch means no hedging while the threshold is
// above the timeout. The reconcile round keeps to it (a failed reconcile
// read is not replaced: reconcileMaySpeculate), but the first round sends
// its speculative request at once when a failure leaves it no other way,
// however far above the read timeout the threshold is: a table whose
// threshold has climbed past the timeout (its replicas are drowning, and
// answer ErrOverloaded) keeps sending each failed read's load to another
// replica.
func TestNoHedgeWhileTheThresholdIsAboveTheTimeout(t *testing.T) {
	for _, c := range []struct {
		name    string
		failing string // fails its data reads
	}{
		{"first round", A},
		{"reconcile round", B},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				co := failingDataRound(t, c.failing, ms(50), "60ms")
				defer co.Close()

				res, err := co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				m := co.Metrics().Total
				assert.Zero(t, m.SpeculativeRetries+m.ReconcileSpeculations,
					"%s: a speculative request was sent with the threshold (60 ms) above the read timeout (50 ms): err %v\n%s", c.name, err, res.Trace)
				settle()
			})
		})
	}
}

// The same with a threshold the table learnt: a timeout storm (every
// replica slower than the 100 ms read timeout) sets its 99p at 100.14 ms,
// above the timeout; while it stays there, a read whose data replica
// refuses it at once as overloaded is hedged to C. At the default 5 s
// timeout the storm's 99p is 4.9996 s, the midpoint of the tracker's
// bucket of 5 s, just under the timeout: as far as the tracker can tell,
// at it, and slow reads hedged 0.4 ms before their deadline. Past
// latency.MaxLatency (about 68.7 s), the most a tracker tells apart, the
// storm's 99p is MaxLatency, however long the timeout: at a 100 s timeout
// it stood 31 s under it, and the overloaded read was hedged.
func TestNoHedgeWhileTheLearntThresholdIsAboveTheTimeout(t *testing.T) {
	for _, timeout := range []time.Duration{ms(100), 5 * time.Second, 100 * time.Second} {
		t.Run(timeout.String(), func(t *testing.T) { noHedgeAfterATimeoutStorm(t, timeout) })
	}
}

func noHedgeAfterATimeoutStorm(t *testing.T, timeout time.Duration) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: timeout, ThresholdRefresh: ms(1),
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(2*timeout))
		}
		for range 250 {
			_, _, err := e.read(consistency.Quorum)
			require.Error(t, err)
		}
		settle()
		th, _ := e.c.TableMetrics(tbl)
		learnt := min(timeout, latency.MaxLatency) // what a tracker can tell of it
		require.InDelta(t, learnt, th.Threshold, float64(learnt/64), "the storm set the threshold at the timeout")
		before := e.c.Metrics().Total

		for _, id := range []string{B, C} {
			e.behave(t, id, constant(ms(1)))
		}
		e.behave(t, A, replicatest.Behavior{Fault: replicatest.ErrorAfter(0, replica.ErrOverloaded)})
		res, _, err := e.read(consistency.Quorum)
		after := e.c.Metrics().Total
		assert.Zero(t, after.SpeculativeRetries-before.SpeculativeRetries,
			"threshold %v at the %v timeout, yet A's overload was hedged: err %v\n%s", th.Threshold, timeout, err, res.Trace)
		assert.Equal(t, int64(1), after.SuppressedOverload-before.SuppressedOverload, "the switch counts what it stops")
		settle()
	})
}
