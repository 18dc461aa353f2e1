package readpath_test

import (
	"context"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// ---- coordinator: costs as replicas grow ----

// rfCluster is rf in-memory replicas that answer at once, on rf racks,
// all holding the small partition of key "k".
func rfCluster(b *testing.B, rf int) *replicatest.Cluster {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: rf, Nodes: rf}},
		Replication: consistency.Simple(rf),
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

func benchRFRead(b *testing.B, rf int, level consistency.Level) {
	c := benchCoordinator(b, rfCluster(b, rf))
	req := coordinator.Request{Table: "t", Key: "k", Level: level}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Read(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadOneRF9 is a read at ONE among nine replicas: one request, as
// at RF 3. Target: at most 1.3x BenchmarkReadOneRF3, its reference.
func BenchmarkReadOneRF9(b *testing.B) { benchRFRead(b, 9, consistency.One) }

// BenchmarkReadOneRF3 is the reference for BenchmarkReadOneRF9.
func BenchmarkReadOneRF3(b *testing.B) { benchRFRead(b, 3, consistency.One) }

// BenchmarkReadAllRF9 sends nine requests: its cost per request should be
// about BenchmarkReadAllRF3's (three requests).
func BenchmarkReadAllRF9(b *testing.B) { benchRFRead(b, 9, consistency.All) }

// BenchmarkReadAllRF3 is the reference for BenchmarkReadAllRF9.
func BenchmarkReadAllRF3(b *testing.B) { benchRFRead(b, 3, consistency.All) }
