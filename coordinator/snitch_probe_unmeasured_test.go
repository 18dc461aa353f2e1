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

// A replica whose every request has failed, from the first on, has no
// latency score to expire, and is probed by one read once its misses are
// older than the reset interval, as one that failed after answering is:
// once it heals, reads at ONE ask it again.
func TestSnitchProbesAReplicaThatHasOnlyFailed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
		require.NoError(t, e.replica(A).SetFault(replicatest.ErrorAfter(ms(1), nil)))
		_, _, err := e.read(consistency.One) // A fails before it ever answered
		require.Error(t, err)
		for range 3 {
			res, _, err := e.read(consistency.One)
			require.NoError(t, err)
			require.NotEqual(t, A, firstContact(t, res), "A missed")
		}
		settle()

		time.Sleep(ms(501)) // one read of the next ten probes A, which still fails
		before := e.stats(A).Reads
		for range 10 {
			_, _, _ = e.read(consistency.One) // fails when it asks A
			time.Sleep(ms(10))
		}
		assert.Equal(t, int64(1), e.stats(A).Reads-before, "reads that asked A in its second interval")

		require.NoError(t, e.replica(A).SetFault(replicatest.Fault{})) // A heals
		time.Sleep(ms(501))
		asked := 0
		for range 10 {
			res, _, err := e.read(consistency.One)
			require.NoError(t, err)
			if firstContact(t, res) == A {
				asked++
			}
			time.Sleep(ms(10)) // B and C keep answering: only A's standing is old
		}
		assert.Positive(t, asked, "reads that asked A after the reset interval")
	})
}
