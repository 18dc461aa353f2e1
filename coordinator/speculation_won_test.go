package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// HedgeTrace.Won says whether a speculative action's answer was used, for
// the reconcile round's and the repair round's as for the first round's.
// The reconcile read to C (sent at 11 ms, answering at 12) is merged when
// B's data stalls for good, and loses to B's data at 11.5 ms; the
// additional write to C (sent at 7 ms, acknowledged at 8) completes the
// repair when A's write stalls for good, and loses to A's acknowledgement
// at 7.5 ms.
func TestALaterRoundsSpeculationSaysWhetherItWon(t *testing.T) {
	reconcile := func(tr coordinator.Trace) coordinator.HedgeTrace { return tr.ReconcileHedge }
	additional := func(tr coordinator.Trace) coordinator.HedgeTrace { return tr.AdditionalWrite }
	cases := []struct {
		name        string
		policy      string
		stalled     string
		stall       [2]float64 // ms: when it stops answering, and when it answers again
		speculation func(coordinator.Trace) coordinator.HedgeTrace
		won         bool
	}{
		{"reconcile read merged", "10ms", B, [2]float64{1, 60_000}, reconcile, true},
		{"reconcile read beaten by B", "10ms", B, [2]float64{1, 10.5}, reconcile, false},
		{"additional write counted", "5ms", A, [2]float64{2, 60_000}, additional, true},
		{"additional write beaten by A", "5ms", A, [2]float64{2, 6.5}, additional, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var e *env
				if c.stalled == B {
					e = newStallingEnv(t, coordinator.Config{DefaultTable: policy(t, c.policy)})
				} else {
					e = newUnackedEnv(t, c.policy)
				}
				e.behave(t, c.stalled, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
					Pauses: []replicatest.Window{{Start: ms(c.stall[0]), End: ms(c.stall[1])}}})

				res, _, err := e.read(consistency.Quorum)
				require.NoError(t, err)
				h := c.speculation(res.Trace)
				require.True(t, h.Fired, res.Trace.String())
				assert.Equal(t, c.won, h.Won, res.Trace.String())
				for _, rt := range res.Trace.Requests {
					switch {
					case !rt.Speculative:
					case rt.Kind == coordinator.KindRepair:
						assert.Equal(t, c.won, rt.Outcome == coordinator.Answered, "the scenario: %s", res.Trace.String())
					default: // a losing read that answered before the read ended is Answered, not Used
						assert.Equal(t, c.won, rt.Used, "the scenario: %s", res.Trace.String())
					}
				}
			})
		})
	}
}
