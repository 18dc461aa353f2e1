package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// Among the replicas that missed, fewer misses come first. The key of one
// that missed was its latency key times its misses, so a replica that
// fails at once, keeping the 1 ms score it had before, ranked ahead of a
// slower one that answers and missed once, however many more misses it
// had: at QUORUM under NEVER every read went to the failing replica and
// failed, until the slower one's probe (found by review).
func TestSnitchFewerMissesFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"), ReadTimeout: 50 * time.Millisecond})
		e.behave(t, A, constant(ms(10)))
		_, _, err := e.read(consistency.All) // A scored at 10 ms, B and C at 1 ms
		require.NoError(t, err)
		require.NoError(t, e.replica(A).SetFault(replicatest.Unreachable()))
		_, _, err = e.read(consistency.All) // A times out once: one miss
		require.Error(t, err)
		require.NoError(t, e.replica(A).SetFault(replicatest.Fault{}))            // A answers again, in 10 ms
		require.NoError(t, e.replica(B).SetFault(replicatest.ErrorAfter(0, nil))) // B fails at once from now on
		settle()

		misses := func(id string) int64 {
			for _, r := range e.c.Metrics().Replicas {
				if r.Endpoint.ID == id {
					return r.Misses
				}
			}
			return -1
		}
		failed := 0
		for i := range 10 {
			res, _, err := e.read(consistency.Quorum)
			settle()
			if err != nil {
				failed++
			}
			if i >= 2 { // B has more misses than A from here on
				require.Greater(t, misses(B), int64(1))
				assert.True(t, contacted(res, A) || misses(A) == 0,
					"read %d: B (%d misses) was asked before A (%d misses)\n%s", i, misses(B), misses(A), res.Trace)
			}
			time.Sleep(ms(10))
		}
		assert.LessOrEqual(t, failed, 2, "QUORUM reads that failed while A and C could serve them")
	})
}
