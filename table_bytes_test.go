package readpath_test

import (
	"context"
	"runtime"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// servedTableBytes bounds the README's "about 9 KiB" for the coordinator
// state of a table that has served a minute of reads (its trackers,
// thresholds, budget and counters), with room for the collector's rounding.
// The README said 6.4 KiB, BytesPerTable's figure for a table after one
// read, fake replicas' copies of its partition included; this test measured
// 8.9 KiB.
const servedTableBytes = 10 * 1024.0

// A table that has served a minute of reads holds what the README says: two
// of its trackers (the threshold's and the metrics') have each counted a
// minute of latencies over the octaves its reads span, log-normal around
// 2 ms with a GC-pause tail, as the root benchmarks' samples.
func TestBytesPerServedTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const tables, reads = 200, 300
		cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
			Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
			Replication: consistency.Simple(3),
			Options: []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{
				Latency:     replicatest.LogNormal(2*time.Millisecond, 0.5),
				PauseChance: 0.01,
				PauseLength: replicatest.Uniform(50*time.Millisecond, 100*time.Millisecond),
			})},
		})
		if err != nil {
			t.Fatal(err)
		}
		p := replica.NewPartition("k", replica.NewRow("r", replica.Live("a", "alpha", 1)))
		name := func(i int) string { return "served" + strconv.Itoa(i) }
		for i := range tables + 1 {
			if err := cl.Seed(name(i), p); err != nil {
				t.Fatal(err)
			}
		}
		c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1"})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		read := func(i int) {
			req := coordinator.Request{Table: name(i), Key: "k", Level: consistency.Quorum}
			if _, err := c.Read(context.Background(), req); err != nil {
				t.Fatal(err)
			}
		}
		read(tables) // what the coordinator allocates once, not per table
		before := heapInUse()
		for r := range reads {
			for i := range tables {
				read(i)
			}
			time.Sleep(time.Minute / reads)
			if r == 0 {
				t.Logf("after one read: %.0f B a table", float64(heapInUse()-before)/tables)
			}
		}
		perTable := float64(heapInUse()-before) / tables
		t.Logf("after a minute of reads: %.0f B a table", perTable)
		if perTable > servedTableBytes {
			t.Errorf("a table that has served a minute of reads holds %.1f KiB, the README says %.1f KiB",
				perTable/1024, servedTableBytes/1024)
		}
		runtime.KeepAlive(cl)
	})
}
