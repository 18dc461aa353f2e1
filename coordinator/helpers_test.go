package coordinator_test

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const (
	tbl = "users"
	key = "k"
)

// The three replicas of key in a single-datacenter cluster of three, in
// the locator's (static) order.
const (
	A = "dc1-r1-n1"
	B = "dc1-r2-n2"
	C = "dc1-r3-n3"
	D = "dc1-r4-n4" // fiveNodes' fourth and fifth
	E = "dc1-r5-n5"
)

func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }

// env is a coordinator over a fake cluster, built inside a synctest bubble.
type env struct {
	cluster *replicatest.Cluster
	c       *coordinator.Coordinator
}

// newEnv builds a single-datacenter cluster of three nodes, RF 3, with key
// pinned to A, B, C in that order and seeded with the same row everywhere.
// Every replica answers in 1 ms unless the test changes it. cfg's Locator
// and Liveness are set to the cluster.
func newEnv(t *testing.T, cfg coordinator.Config) *env {
	t.Helper()
	return newEnvOn(t, threeNodes(t), cfg)
}

// threeNodes is newEnv's cluster.
func threeNodes(t *testing.T) *replicatest.Cluster {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
		Seed:        1,
		Options:     []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{Latency: replicatest.Constant(ms(1))})},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, A, B, C))
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return cl
}

// fiveNodes is newEnv's cluster with five nodes on five racks, RF 5, key
// pinned to A to E in that order.
func fiveNodes(t *testing.T) *replicatest.Cluster {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 5, Nodes: 5}},
		Replication: consistency.Simple(5), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, A, B, C, D, E))
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return cl
}

// newEnvOn is newEnv over cl; a Locator cfg sets (one that wraps cl's
// replicas) is kept.
func newEnvOn(t *testing.T, cl *replicatest.Cluster, cfg coordinator.Config) *env {
	t.Helper()
	if cfg.Locator == nil {
		cfg.Locator = cl
	}
	cfg.Liveness = cl
	c, err := coordinator.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return &env{cluster: cl, c: c}
}

// instantCluster is a single-datacenter cluster of three nodes, RF 3,
// whose replicas answer at once, holding key; for tests outside a bubble.
func instantCluster(t *testing.T) *replicatest.Cluster {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	require.NoError(t, err)
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	return cl
}

// wrapping locates through cl and hands out the first n replicas, in ring
// order, wrapped by wrap.
func wrapping(cl *replicatest.Cluster, n int, wrap func(replica.Replica) replica.Replica) coordinator.LocatorFunc {
	return func(table, key string) ([]replica.Replica, consistency.Replication, error) {
		reps, repl, err := cl.Locate(table, key)
		reps = slices.Clone(reps) // the cluster's slice is shared
		for i := range min(n, len(reps)) {
			reps[i] = wrap(reps[i])
		}
		return reps, repl, err
	}
}

func row(k, value string, ts int64) replica.Partition {
	return replica.NewPartition(k, replica.NewRow("r", replica.Live("v", value, ts)))
}

// policy returns a table's options with the given speculative retry.
func policy(t *testing.T, s string) coordinator.TableOptions {
	t.Helper()
	p, err := latency.ParseSpeculativeRetry(s)
	require.NoError(t, err)
	return coordinator.TableOptions{SpeculativeRetry: p}
}

func (e *env) replica(id string) *replicatest.Replica { return e.cluster.Replica(id) }

func (e *env) behave(t *testing.T, id string, b replicatest.Behavior) {
	t.Helper()
	require.NoError(t, e.replica(id).SetBehavior(b))
}

// read reads key at level and returns the result, how long the read took
// in (virtual) time, and the error.
func (e *env) read(level consistency.Level) (coordinator.Result, time.Duration, error) {
	start := time.Now()
	res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level})
	return res, time.Since(start), err
}

// stats returns the replicas' request counts.
func (e *env) stats(id string) replicatest.Stats { return e.replica(id).Stats() }

// totalReads is the number of read requests the cluster received.
func (e *env) totalReads() int64 { return e.cluster.Stats().Reads }

// settle lets cancelled requests finish, so replica stats and the
// snitch's scores are final.
func settle() { synctest.Wait() }

func constant(d time.Duration) replicatest.Behavior {
	return replicatest.Behavior{Latency: replicatest.Constant(d)}
}
