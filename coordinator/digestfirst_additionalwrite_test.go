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

// A digest-first read at LOCAL_QUORUM whose repair of d1n1 stalls: d1n3,
// whose digest had not come in when the first round completed, was asked
// for nothing that counted, so the additional write goes to it, as the
// reconcile round's speculation would, and the read completes on its
// acknowledgement. Every replica was asked for a digest: counting them
// all as contacted left no target, and the read timed out.
func TestDigestFirstAdditionalWriteGoesToADigestStraggler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := digestFirstOptions(t)
		o.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
		e := newTwoDCs(t, coordinator.Config{DefaultTable: o, ReadTimeout: ms(100),
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v1", 20), d1n1))
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), d1n2, d1n3, d2n1, d2n2, d2n3))
		// d1n1 answers its reads at 1 ms, then takes up nothing after 2.15 ms.
		e.behave(t, d1n1, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2.15), End: ms(60_000)}}})
		e.behave(t, d1n2, constant(ms(1.1)))
		e.behave(t, d1n3, constant(ms(20)))

		res, took, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err, "d1n2 holds the result and d1n3 is healthy")
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		// Digests by 1.1 ms, d1n1's data at 2.1, d1n2's at 3.2 and the
		// repair sent; the additional write at 8.2, acknowledged at 28.2.
		h := res.Trace.AdditionalWrite
		assert.Equal(t, d1n3, h.To)
		assert.Equal(t, 8200*time.Microsecond, h.At)
		assert.True(t, h.Won)
		assert.Equal(t, 28200*time.Microsecond, took)
		for _, rt := range res.Trace.Requests {
			assert.Equal(t, "dc1", dcOf(rt.Endpoint), "a LOCAL_QUORUM read left dc1: %+v", rt)
		}
		assert.Equal(t, int64(1), e.c.Metrics().Total.AdditionalWrites)
	})
}

// The same at EACH_QUORUM, in dc2: d2n1's repair stalls, and d2n3, the
// straggler, holds the result in its place; its acknowledgement counts
// towards dc2's quorum.
func TestDigestFirstAdditionalWriteGoesToADigestStragglerAtEachQuorum(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := digestFirstOptions(t)
		o.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
		e := newTwoDCs(t, coordinator.Config{DefaultTable: o, ReadTimeout: ms(100),
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), d1n1, d1n2, d1n3, d2n2, d2n3))
		e.behave(t, d2n1, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2.5), End: ms(60_000)}}})
		e.behave(t, d2n2, constant(ms(1.1)))
		e.behave(t, d2n3, constant(ms(20)))

		res, took, err := e.read(consistency.EachQuorum)
		require.NoError(t, err, "d2n2 holds the result and d2n3 is healthy")
		assert.True(t, res.Partition.Equal(row(key, "v2", 20)))
		assert.Equal(t, []string{d2n1}, res.Trace.Repaired)
		assert.Equal(t, d2n3, res.Trace.AdditionalWrite.To)
		assert.Equal(t, 28200*time.Microsecond, took)
	})
}
