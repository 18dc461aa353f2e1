package readpath_test

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// ---- coordinator: costs as replicas grow ----

// rfCluster is rf in-memory replicas that answer at once, on rf racks,
// all holding the small partition of key "k".
func rfCluster(b testing.TB, rf int) *replicatest.Cluster {
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

// BenchmarkReadOnePaced is BenchmarkReadOneRF3 with the reading goroutine
// doing arithmetic of its own (pace) between reads, as much as
// BenchmarkPace's sub-benchmark of the same name takes: a read should take
// ReadOneRF3's time plus that. On one core it does; on two, past some pace,
// each read also pays for waking the other core's thread, which has stopped
// looking for work before the read hands its request to a worker. It shows
// that ReadOneRF9 against ReadOneRF3 on two cores measures where a read's
// length falls against that point, not only its cost.
func BenchmarkReadOnePaced(b *testing.B) {
	for _, n := range paces {
		b.Run(fmt.Sprintf("pace=%d", n), func(b *testing.B) {
			c := benchCoordinator(b, rfCluster(b, 3))
			req := coordinator.Request{Table: "t", Key: "k", Level: consistency.One}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				pace(n)
				if _, err := c.Read(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPace is the reference for BenchmarkReadOnePaced: the pace alone.
func BenchmarkPace(b *testing.B) {
	for _, n := range paces {
		b.Run(fmt.Sprintf("pace=%d", n), func(b *testing.B) {
			for b.Loop() {
				pace(n)
			}
		})
	}
}

// paces are the steps of pace that BenchmarkReadOnePaced tries: about a
// quarter, a half, one and two microseconds on the VM of the README.
var paces = []int{256, 512, 1024, 2048}

var sinkPace uint64

// pace does n steps of a linear congruential generator, which the compiler
// cannot skip: work that touches no memory and wakes nothing.
func pace(n int) {
	x := sinkPace
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sinkPace = x
}

// BenchmarkReadAllRF9 sends nine requests: its cost per request should be
// about BenchmarkReadAllRF3's (three requests).
func BenchmarkReadAllRF9(b *testing.B) { benchRFRead(b, 9, consistency.All) }

// BenchmarkReadAllRF3 is the reference for BenchmarkReadAllRF9.
func BenchmarkReadAllRF3(b *testing.B) { benchRFRead(b, 3, consistency.All) }

// ---- coordinator: costs as tables grow ----

// servedTables returns a coordinator over instant replicas whose n tables
// have each served a QUORUM read.
func servedTables(b testing.TB, n int) *coordinator.Coordinator {
	cl := rfCluster(b, 3)
	c := benchCoordinator(b, cl)
	ctx := context.Background()
	p := replica.NewPartition("k", replica.NewRow("r", replica.Live("a", "alpha", 1)))
	for i := range n {
		table := tableName(i)
		if err := cl.Seed(table, p); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Read(ctx, coordinator.Request{Table: table, Key: "k", Level: consistency.Quorum}); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

func tableName(i int) string { return "table" + strconv.Itoa(i) }

// BenchmarkMetrics4200Tables is one Metrics snapshot of a coordinator whose
// 4,200 tables have served reads. Target: at most 20 ms.
func BenchmarkMetrics4200Tables(b *testing.B) {
	c := servedTables(b, 4200)
	b.ReportAllocs()
	for b.Loop() {
		if m := c.Metrics(); len(m.Tables) != 4200 {
			b.Fatalf("%d tables", len(m.Tables))
		}
	}
}

// BenchmarkTableMetrics is one table's metrics among 4,200, read without
// building the others'.
func BenchmarkTableMetrics(b *testing.B) {
	c := servedTables(b, 4200)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := c.TableMetrics("table42"); !ok {
			b.Fatal("no table42")
		}
	}
}

// BenchmarkAddTable adds a table to a coordinator whose n tables have
// served reads, as SetTableOptions or a table's first read does, and drops
// it again (DropTable), so that every addition meets n tables. Target:
// O(1), at 4,000 tables at most 1.5x the time at 40 (the table map was
// copied whole on each addition: 380 µs at 4,000). Both run beside 4,000
// served tables, for the reason mergeHeapRows gives: with only 40 alive,
// the heap stayed under the collector's 4 MB minimum, which marked far
// less for each table added, and the 4,000 took 1.7-2.4x as long on one
// core (1.0-1.2x on two, where it marks on the other core).
func BenchmarkAddTable(b *testing.B) {
	const most = 4000
	for _, n := range []int{40, most} {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			heap := servedTables(b, most)
			c := heap
			if n < most {
				c = servedTables(b, n)
			}
			names := make([]string, 1024)
			for i := range names {
				names[i] = "added" + strconv.Itoa(i)
			}
			opts := c.TableOptions(tableName(0))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				name := names[i%len(names)]
				if err := c.SetTableOptions(name, opts); err != nil {
					b.Fatal(err)
				}
				c.DropTable(name)
				i++
			}
			runtime.KeepAlive(heap)
		})
	}
}

// BenchmarkBytesPerTable reports the heap a table that has served one read
// holds, measured over 4,000 tables: every tracker, threshold, budget and
// counter, and the fake replicas' copies of its partition. Target: at most
// 24 KiB. TestBytesPerServedTable measures a table after a minute of reads.
func BenchmarkBytesPerTable(b *testing.B) {
	const n = 4000
	for b.Loop() {
		before := heapInUse()
		c := servedTables(b, n)
		after := heapInUse()
		b.ReportMetric(float64(after-before)/n, "B/table")
		runtime.KeepAlive(c)
	}
}

// heapInUse returns the bytes of live heap objects after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// ---- coordinator: costs as datacenters grow ----

// addressed gives a replica an address for its ID, as real clusters name
// their nodes: IDs of one length and one port, differing in the middle.
type addressed struct {
	replica.Replica
	ep replica.Endpoint
}

func (a addressed) Endpoint() replica.Endpoint { return a.ep }

// benchDCRead reads at LOCAL_ONE from dcs datacenters of nine replicas
// each, named by address, through a locator that hands out one checked
// Placement, or one slice if sliced.
func benchDCRead(b *testing.B, dcs int, sliced bool) {
	var names []replicatest.Datacenter
	rf := map[string]int{}
	for d := range dcs {
		name := fmt.Sprintf("dc%d", d+1)
		names = append(names, replicatest.Datacenter{Name: name, Racks: 3, Nodes: 9})
		rf[name] = 9
	}
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{Datacenters: names, Replication: consistency.NetworkTopology(rf)})
	if err != nil {
		b.Fatal(err)
	}
	if err := cl.Seed("t", replica.NewPartition("k", replica.NewRow("r", replica.Live("a", "alpha", 1)))); err != nil {
		b.Fatal(err)
	}
	reps, repl, err := cl.Locate("t", "k")
	if err != nil {
		b.Fatal(err)
	}
	placed := make([]replica.Replica, len(reps))
	for i, r := range reps {
		ep := r.Endpoint()
		ep.ID = fmt.Sprintf("10.%d.%d.%d:9042", i/9, i%9/3, i%3+10)
		placed[i] = addressed{r, ep}
	}
	var locator coordinator.Locator = coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) { return placed, repl, nil })
	if !sliced {
		p, err := coordinator.NewPlacement(placed, repl)
		if err != nil {
			b.Fatal(err)
		}
		locator = onePlacement{locator, p}
	}
	c, err := coordinator.New(coordinator.Config{Locator: locator, LocalDatacenter: "dc1"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	req := coordinator.Request{Table: "t", Key: "k", Level: consistency.LocalOne}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Read(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// onePlacement is a PlacementLocator that hands out one placement.
type onePlacement struct {
	coordinator.Locator
	p *coordinator.Placement
}

func (o onePlacement) LocatePlacement(string, string) (*coordinator.Placement, error) {
	return o.p, nil
}

// BenchmarkReadLocalOneDC8 reads at LOCAL_ONE from eight datacenters of
// nine replicas, placed by a PlacementLocator: one request, as from one
// datacenter. Its reference is BenchmarkReadLocalOneDC1.
func BenchmarkReadLocalOneDC8(b *testing.B) { benchDCRead(b, 8, false) }

// BenchmarkReadLocalOneDC1 is the reference for BenchmarkReadLocalOneDC8.
func BenchmarkReadLocalOneDC1(b *testing.B) { benchDCRead(b, 1, false) }

// BenchmarkReadLocalOneDC8Sliced is BenchmarkReadLocalOneDC8 through a
// Locator's slice, whose 72 replicas every read asks for their endpoints
// and checks. Its reference is BenchmarkReadLocalOneDC8.
func BenchmarkReadLocalOneDC8Sliced(b *testing.B) { benchDCRead(b, 8, true) }
