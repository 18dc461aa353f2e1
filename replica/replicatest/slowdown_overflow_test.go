package replicatest_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A service time is "Latency times Slowdown times the cluster's slowdown"
// (Behavior's doc): a latency of 0 is 0 under any finite slowdowns. Two
// that Validate and SetSlowdown accept multiply to +Inf, and 0 × +Inf is
// NaN, which became math.MinInt64 and then, through the saturating add of
// the pause, math.MaxInt64: the replica never answered (found by review).
func TestZeroLatencyUnderHugeSlowdownsAnswersAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Nodes: 1}},
			Replication: consistency.Simple(1), Seed: 1,
			Options: []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{
				Latency: replicatest.Constant(0), Slowdown: 1e200,
			})},
		})
		require.NoError(t, err)
		require.NoError(t, c.SetSlowdown(1e200))
		r := c.Replicas()[0]
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		start := time.Now()
		_, err = r.Read(ctx, replica.Command{Table: "t", Key: "k"})
		assert.NoError(t, err, "a zero service time must answer, not wait past the deadline")
		assert.Equal(t, time.Duration(0), time.Since(start))
	})
}
