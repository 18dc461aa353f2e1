package coordinator_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A replica that missed is probed once its last answer is ResetInterval
// old, however often hedges reach it and lose: a lost hedge's time is a
// lower bound, not an answer, and does not put the probe off. A fails
// once and then answers in 3 ms; B answers in 1 ms and C in 7 ms. Every
// QUORUM read contacts B and C (A missed), hedges to A at 5 ms, and C's
// answer at 7 ms cancels the hedge 2 ms in, more than A's 1 ms score:
// dated by those bounds, A's score never expired, and A was never asked
// again, every read taking 7 ms where A and B answer in 3.
func TestSnitchLostHedgesDoNotPutOffAMissedReplicasProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms")})
		_, _, err := e.read(consistency.Quorum) // A and B scored at 1 ms
		require.NoError(t, err)
		e.behave(t, A, replicatest.Behavior{Fault: replicatest.ErrorAfter(0, errors.New("transient"))})
		_, _, err = e.read(consistency.Quorum) // A fails, C stands in
		require.NoError(t, err)
		e.behave(t, A, constant(ms(3)))
		e.behave(t, C, constant(ms(7)))
		start := time.Now()
		hedges := 0
		for time.Since(start) < 30*time.Second {
			res, took, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			if firstContact(t, res) == A {
				require.Equal(t, ms(3), took, "A's probe: A and B answer")
				require.Less(t, time.Since(start), 11*time.Second, "probed within ResetInterval (10 s) of A's last answer, and a read")
				return
			}
			if res.Trace.Hedge.Fired {
				hedges++
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("A, which missed once and answers in 3 ms, was not asked but by %d hedges in 30 s: reads took 7 ms", hedges)
	})
}
