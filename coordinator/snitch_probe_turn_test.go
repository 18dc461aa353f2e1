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

// Two replicas whose scores expire together are probed by two reads, one
// each: a read tries only the first probe it claims, so claiming the
// other too put that one's probe off by an interval, and at ONE, where B
// and C are asked only when probed, by an interval every interval. B was
// slow and C failed; both healed, and each must be probed to be ranked
// by how it answers now.
func TestSnitchProbesExpiredReplicasInTurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{ResetInterval: ms(500)}})
		e.behave(t, B, constant(ms(10)))
		_, _, err := e.read(consistency.All) // B scored at 10 ms, A and C at 1 ms
		require.NoError(t, err)
		require.NoError(t, e.replica(C).SetFault(replicatest.ErrorAfter(ms(1), nil)))
		_, _, err = e.read(consistency.All) // C fails
		require.Error(t, err)
		e.behave(t, B, constant(ms(1)))
		require.NoError(t, e.replica(C).SetFault(replicatest.Fault{}))
		settle()

		before := map[string]int64{B: e.stats(B).Reads, C: e.stats(C).Reads}
		for range 200 { // 4 s of reads at ONE, 20 ms apart: 8 intervals
			time.Sleep(ms(20))
			_, _, err := e.read(consistency.One)
			require.NoError(t, err)
		}
		assert.Positive(t, e.stats(B).Reads-before[B], "probes of B")
		assert.Positive(t, e.stats(C).Reads-before[C], "probes of C")
	})
}
