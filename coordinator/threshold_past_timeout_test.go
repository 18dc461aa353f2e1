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
		e, th := afterATimeoutStorm(t, timeout, coordinator.TableOptions{})
		learnt := min(timeout, latency.MaxLatency) // what a tracker can tell of it
		require.InDelta(t, learnt, th, float64(learnt/64), "the storm set the threshold at the timeout")
		hedgesAnOverloadedRead(t, e, false)
	})
}

// A hybrid policy's delay past latency.MaxLatency, under a longer timeout:
// after a timeout storm the 99p is clamped at MaxLatency, and MAX's 80 s
// under the 100 s timeout let reads hedge through the storm, while MIN,
// whose threshold is at most its 80 s, stood at MaxLatency, read as the
// timeout, and hedged none.
func TestAHybridPolicyPastMaxLatencyAfterATimeoutStorm(t *testing.T) {
	for _, c := range []struct {
		policy string
		want   time.Duration
		hedges bool
	}{
		{"MAX(99p,80000ms)", latency.MaxLatency, false},
		{"MIN(99p,80000ms)", 80 * time.Second, true},
	} {
		t.Run(c.policy, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e, th := afterATimeoutStorm(t, 100*time.Second, policy(t, c.policy))
				require.Equal(t, c.want, th)
				hedgesAnOverloadedRead(t, e, c.hedges)
			})
		})
	}
}

// afterATimeoutStorm returns an env whose replicas all took twice the
// timeout for 250 reads, and the threshold those reads left.
func afterATimeoutStorm(t *testing.T, timeout time.Duration, o coordinator.TableOptions) (*env, time.Duration) {
	e := newEnv(t, coordinator.Config{ReadTimeout: timeout, ThresholdRefresh: ms(1),
		Snitch: coordinator.SnitchConfig{Disabled: true}, Tables: map[string]coordinator.TableOptions{tbl: o}})
	for _, id := range []string{A, B, C} {
		e.behave(t, id, constant(2*timeout))
	}
	for range 250 {
		_, _, err := e.read(consistency.Quorum)
		require.Error(t, err)
	}
	settle()
	th, _ := e.c.TableMetrics(tbl)
	return e, th.Threshold
}

// hedgesAnOverloadedRead reads with B and C recovered and A refusing as
// overloaded, and checks whether the read hedged A's request at once or
// the overload switch held it back.
func hedgesAnOverloadedRead(t *testing.T, e *env, hedges bool) {
	before := e.c.Metrics().Total
	for _, id := range []string{B, C} {
		e.behave(t, id, constant(ms(1)))
	}
	e.behave(t, A, replicatest.Behavior{Fault: replicatest.ErrorAfter(0, replica.ErrOverloaded)})
	res, _, err := e.read(consistency.Quorum)
	after := e.c.Metrics().Total
	var want int64
	if hedges {
		want = 1
	}
	assert.Equal(t, want, after.SpeculativeRetries-before.SpeculativeRetries,
		"A's overload hedged: err %v\n%s", err, res.Trace)
	assert.Equal(t, 1-want, after.SuppressedOverload-before.SuppressedOverload, "the switch counts what it stops")
	settle()
}
