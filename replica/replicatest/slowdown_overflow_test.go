package replicatest_test

import (
	"context"
	"math"
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

// scale saturates at the largest Duration: LogNormal(median, 0) is
// Constant(median) (its doc), and a median of math.MaxInt64 times e^0 is
// float64(math.MaxInt64), which is 2^63, one past the largest Duration:
// converted back unsaturated it would be negative, a sample that counts
// as zero, answered at once. The replica must instead hold the read, as
// Constant(math.MaxInt64) does, until its context ends.
func TestTheLongestLogNormalMedianWithoutSpreadNeverAnswers(t *testing.T) {
	for name, l := range map[string]replicatest.Latency{
		"LogNormal(MaxInt64, 0)": replicatest.LogNormal(math.MaxInt64, 0),
		"Constant(MaxInt64)":     replicatest.Constant(math.MaxInt64),
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newReplica(t, with(replicatest.Behavior{Latency: l}))
				ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
				defer cancel()
				start := time.Now()
				_, err := r.Read(ctx, replica.Command{Table: table, Key: "k"})
				require.ErrorIs(t, err, context.DeadlineExceeded)
				assert.Equal(t, time.Hour, time.Since(start))
			})
		})
	}
}
