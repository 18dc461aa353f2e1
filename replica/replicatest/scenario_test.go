package replicatest_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The flaky cluster of the package documentation, line for line, and what
// each of its replicas then does.
func TestDocFlakyCluster(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, older := partition("k", "new", 2), partition("k", "old", 1)
		c, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
			Replication: consistency.Simple(3), Seed: 1,
		})
		require.NoError(t, err)
		require.NoError(t, c.Seed("users", p))
		require.NoError(t, c.Replica("dc1-r1-n1").SetLatency(replicatest.LogNormal(2*time.Millisecond, 0.5)))
		require.NoError(t, c.Replica("dc1-r1-n1").AddPause(replicatest.Window{Start: 100 * time.Millisecond, End: 180 * time.Millisecond}))
		require.NoError(t, c.Replica("dc1-r2-n2").SetFault(replicatest.Down()))
		require.NoError(t, c.Replica("dc1-r3-n3").Seed("users", older))

		time.Sleep(ms(100))
		cmd := replica.Command{Table: "users", Key: "k"}
		took, resp, err := timedRead(t.Context(), c.Replica("dc1-r1-n1"), cmd)
		require.NoError(t, err)
		assert.True(t, resp.Partition.Equal(p))
		assert.Greater(t, took, ms(80), "paused until 180ms, then a log-normal service time")
		_, _, err = timedRead(t.Context(), c.Replica("dc1-r2-n2"), cmd)
		require.ErrorIs(t, err, replicatest.ErrDown)
		_, resp, err = timedRead(t.Context(), c.Replica("dc1-r3-n3"), cmd)
		require.NoError(t, err)
		assert.True(t, resp.Partition.Equal(older))
	})
}

// recorder remembers what its model drew, so a test can compare the
// virtual time a read took with the draw.
type recorder struct {
	replicatest.Latency
	drawn []time.Duration
}

func (r *recorder) Sample(rng *rand.Rand) time.Duration {
	d := r.Latency.Sample(rng)
	r.drawn = append(r.drawn, d)
	return d
}

// Every latency model sets exact virtual times: each read takes exactly
// the service time drawn for it.
func TestEveryLatencyModelSetsExactVirtualTimes(t *testing.T) {
	for name, l := range map[string]replicatest.Latency{
		"constant":   replicatest.Constant(ms(3)),
		"uniform":    replicatest.Uniform(ms(1), ms(9)),
		"log-normal": replicatest.LogNormal(ms(2), 1),
		"empirical":  replicatest.Empirical(ms(1), ms(2), ms(40)),
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &recorder{Latency: l}
				r := newReplica(t, latency(rec))
				var took []time.Duration
				for range 50 {
					took = append(took, readTook(t, r))
				}
				assert.Equal(t, rec.drawn, took)
			})
		})
	}
}

// Reads through a cluster's replicas run at the replicas' pace, however
// many run at once.
func TestConcurrentReadsAcrossAClusterEndTogether(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newCluster(t, replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{dc("dc1", 3, 3)}, Replication: consistency.Simple(3),
			Options: []replicatest.Option{latency(replicatest.Constant(ms(5)))},
		})
		rs := locate(t, c, "k")
		done := make(chan time.Duration, len(rs))
		start := time.Now()
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		for _, r := range rs {
			go func() {
				_, err := r.Read(ctx, replica.Command{Table: table, Key: "k"})
				assert.NoError(t, err)
				done <- time.Since(start)
			}()
		}
		for range rs {
			assert.Equal(t, ms(5), <-done)
		}
	})
}
