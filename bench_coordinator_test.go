package readpath_test

import (
	"context"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// benchCluster is three in-memory replicas that answer at once, all
// holding the same small partition of key "k".
func benchCluster(b *testing.B) *replicatest.Cluster {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		b.Fatal(err)
	}
	p := replica.NewPartition("k", replica.NewRow("r",
		replica.Live("a", "alpha", 1), replica.Live("b", "beta", 1), replica.Live("c", "gamma", 1)))
	if err := cl.Seed("t", p); err != nil {
		b.Fatal(err)
	}
	return cl
}

func benchCoordinator(b *testing.B, cl *replicatest.Cluster) *coordinator.Coordinator {
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

func benchCoordinatorRead(b *testing.B, level consistency.Level) {
	c := benchCoordinator(b, benchCluster(b))
	req := coordinator.Request{Table: "t", Key: "k", Level: level}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Read(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadOne is a read at ONE: one data request.
func BenchmarkReadOne(b *testing.B) { benchCoordinatorRead(b, consistency.One) }

// BenchmarkReadQuorum must take at most 1.5x BenchmarkBareFanout's time.
func BenchmarkReadQuorum(b *testing.B) { benchCoordinatorRead(b, consistency.Quorum) }

// BenchmarkReadQuorumParallel runs QUORUM reads from every core.
func BenchmarkReadQuorumParallel(b *testing.B) {
	c := benchCoordinator(b, benchCluster(b))
	req := coordinator.Request{Table: "t", Key: "k", Level: consistency.Quorum}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if _, err := c.Read(ctx, req); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkBareFanout is the reference for BenchmarkReadQuorum: the same two
// replica reads (data from one, a digest from another) by hand, with no
// coordinator: start two goroutines, wait for two answers, cancel.
func BenchmarkBareFanout(b *testing.B) {
	cl := benchCluster(b)
	reps, _, err := cl.Locate("t", "k")
	if err != nil {
		b.Fatal(err)
	}
	type answer struct {
		resp replica.Response
		err  error
	}
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		ch := make(chan answer, 2)
		for i, r := range reps[:2] {
			cmd := replica.Command{Table: "t", Key: "k", DigestOnly: i > 0}
			go func() {
				resp, err := r.Read(ctx, cmd)
				ch <- answer{resp, err}
			}()
		}
		for range 2 {
			if a := <-ch; a.err != nil {
				b.Fatal(a.err)
			}
		}
		cancel()
	}
}
