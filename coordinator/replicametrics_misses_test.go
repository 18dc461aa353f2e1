package coordinator_test

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// A replica's Misses split into Timeouts, the requests that ran into the
// read timeout, and Failures, those that ended in its error; the rest were
// cancelled overdue. A slow replica and a broken one no longer look alike
// on a dashboard.
func TestReplicaMissesSplitIntoTimeoutsAndFailures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		behave replicatest.Behavior
		want   [3]int64 // misses, timeouts, failures
	}{
		{"timed out", replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: 0, End: ms(1000)}}}, [3]int64{1, 1, 0}},
		{"failed", replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Fault: replicatest.ErrorAfter(ms(1), errors.New("disk failure"))}, [3]int64{1, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"), ReadTimeout: ms(20)})
				e.behave(t, A, tc.behave)
				_, _, err := e.read(consistency.One)
				require.Error(t, err)
				settle()
				m := replicaMetrics(e.c, A)
				assert.Equal(t, tc.want, [3]int64{m.Misses, m.Timeouts, m.Failures}, "misses, timeouts, failures")
			})
		})
	}
	t.Run("cancelled overdue", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "5ms"), ReadTimeout: ms(100)})
			e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(10))})
			e.behave(t, C, replicatest.Behavior{Latency: replicatest.Constant(ms(10))})
			_, _, err := e.read(consistency.All) // scores: A 1 ms, B and C 10 ms
			require.NoError(t, err)
			e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(50))})
			res, _, err := e.read(consistency.One) // A first, B's hedge answers at 15 ms
			require.NoError(t, err)
			require.Len(t, res.Trace.Requests, 2, "%s", res.Trace)
			require.Equal(t, A, res.Trace.Requests[0].Endpoint)
			settle()
			m := replicaMetrics(e.c, A)
			assert.Equal(t, [3]int64{1, 0, 0}, [3]int64{m.Misses, m.Timeouts, m.Failures}, "misses, timeouts, failures")
		})
	})
}
