package readpath_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// ---- replicatest: a wide partition written a row at a time ----

// BenchmarkWriteWidePartition writes a partition of n rows to a fake
// replica by n one-row Applies, in a scattered order, then reads it whole.
// The cost per row must not grow with the partition, as it did when every
// Apply merged and digested the whole partition: 10,000 rows then took
// 18.3-19.0 s, 67-72× what 1,000 did (O(n²)). Now the writes are merged when
// a read first needs them or their rows outnumber the partition's: linear,
// amortized, each row merged two or three times depending on where the last
// doubling of the rows falls (1.99 times a row for 1,000 rows, 2.68 for
// 10,000).
func BenchmarkWriteWidePartition(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1000, 10000} {
		writes := make([]replica.Mutation, n)
		for i := range writes {
			row := (i * 7919) % n // 7919 is prime: every row once, scattered
			writes[i] = replica.Mutation{Table: "t", Partition: replica.NewPartition("k",
				replica.NewRow(fmt.Sprintf("row%06d", row), replica.Live("v", "value", int64(i))))}
		}
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := replicatest.New(replica.Endpoint{ID: "a"})
				if err != nil {
					b.Fatal(err)
				}
				for _, m := range writes {
					if err := r.Apply(ctx, m); err != nil {
						b.Fatal(err)
					}
				}
				resp, err := r.Read(ctx, replica.Command{Table: "t", Key: "k"})
				if err != nil || len(resp.Partition.Rows) != n {
					b.Fatalf("%d rows, %v; want %d", len(resp.Partition.Rows), err, n)
				}
			}
		})
	}
}

// BenchmarkNewCluster builds a fake cluster of two datacenters of n nodes
// each, three racks, 16 tokens a node, NetworkTopology RF 3 in each: the
// ring and every token's replicas. The cost per node must not grow with
// the cluster as it did when each token's walk counted every datacenter's
// racks over all nodes: 1,000 nodes a datacenter then cost 49× what 100
// did (1.05-1.09 s).
func BenchmarkNewCluster(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			cfg := replicatest.ClusterConfig{
				Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: n}, {Name: "dc2", Racks: 3, Nodes: n}},
				Replication: consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}),
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := replicatest.NewCluster(cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
