package readpath_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// ---- coordinator: short-read protection over a missed partition deletion ----

// BenchmarkReadShortRead1000 is a read at ALL with LIMIT 10 where replica
// a holds 1,000 live rows and b and c a later deletion of the partition,
// which a missed: short-read protection asks a for 10 rows after its last
// 100 times, the last time for nothing. Each round should cost what it
// fetched: BenchmarkReadShortRead4000 about 4x this one, not 16x.
func BenchmarkReadShortRead1000(b *testing.B) { benchShortRead(b, 1000) }

// BenchmarkReadShortRead4000 is BenchmarkReadShortRead1000 over 4,000 rows.
func BenchmarkReadShortRead4000(b *testing.B) { benchShortRead(b, 4000) }

// benchNow is the short-read benchmarks' time of reading, in seconds.
const benchNow = 1_700_000_000

func benchShortRead(b *testing.B, n int) {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]replica.Row, n)
	for i := range rows {
		rows[i] = replica.NewRow(fmt.Sprintf("row%06d", i), replica.Live("v", "value", 1))
	}
	deleted := replica.Partition{Key: "k"}.WithDeletion(replica.DeletedAt(2, benchNow-10))
	reps := make([]replica.Replica, 0, 3)
	for i, r := range cl.Replicas() {
		p := deleted
		if i == 0 {
			p = replica.NewPartition("k", rows...)
		}
		if err := r.Seed("t", p); err != nil {
			b.Fatal(err)
		}
		reps = append(reps, r)
	}
	locate := func(string, string) ([]replica.Replica, consistency.Replication, error) {
		return reps, consistency.Simple(3), nil
	}
	c, err := coordinator.New(coordinator.Config{Locator: coordinator.LocatorFunc(locate), Liveness: cl,
		LocalDatacenter: "dc1", DefaultTable: coordinator.TableOptions{ReadRepair: repair.None}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	req := coordinator.Request{Table: "t", Key: "k", Level: consistency.All, Query: replica.Query{Limit: 10}, NowInSec: benchNow}
	before := c.Metrics().Total.ShortReadRequests
	if res, err := c.Read(context.Background(), req); err != nil || !res.Visible().IsEmpty() ||
		c.Metrics().Total.ShortReadRequests-before != int64(n/10) {
		b.Fatalf("%v, %d rows, %d short-read requests; want none, %d", err, len(res.Visible().Rows),
			c.Metrics().Total.ShortReadRequests-before, n/10)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Read(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
