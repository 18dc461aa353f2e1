package ring_test

import (
	"fmt"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// Murmur3Token of a 16-byte key (one block, no tail) beside Cassandra's
// code transcribed into plain Go, each block read as a little-endian word
// (leMurmur3Token; the byte-at-a-time transcription, refMurmur3Token, is
// the tests' oracle, not a fair reference).
func BenchmarkMurmur3Token(b *testing.B) {
	key := []byte("user:0000001234\xff")
	b.Run("impl=fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = ring.Murmur3Token(key)
		}
	})
	b.Run("impl=reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = leMurmur3Token(key)
		}
	})
}

// Locate over 12 nodes of 256 vnodes (3072 ranges), RF 3, and
// LocatePlacement of the placements it keeps, beside a straightforward
// locator that hashes with Murmur3Token, binary-searches the sorted token
// list and builds the replica list on every call (locateSearched; the
// oracle the tests check placements against scans the list instead).
func BenchmarkLocate(b *testing.B) {
	nodes := randomNodes(7, 12, 256, 1, 3)
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Connect: new(connector).connect,
		Tables: map[string]consistency.Replication{"events": tables["events"]}}) // one datacenter
	if err != nil {
		b.Fatal(err)
	}
	ref := newRefLocate(l.Ring(), 3)
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = fmt.Sprintf("user:%010d", i)
	}
	b.Run("impl=cached", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_, _, _ = l.Locate("events", keys[i&1023])
			i++
		}
	})
	b.Run("impl=reference", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_ = ref.locateSearched(keys[i&1023])
			i++
		}
	})
	b.Run("impl=placement", func(b *testing.B) {
		for _, k := range keys { // the placements are made at a range's first read
			_, _ = l.LocatePlacement("events", k)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_, _ = l.LocatePlacement("events", keys[i&1023])
			i++
		}
	})
}

// IsAlive from every goroutine, beside a mutex-guarded map of states.
// Nodes learned by heartbeat join IsAlive's map at the first connection
// failure, so one is reported: the map then holds every node, as in a
// cluster that has seen one.
func BenchmarkIsAlive(b *testing.B) {
	d, _ := ring.NewDetector(ring.DetectorConfig{ConnectionFailures: 2})
	defer d.Close()
	eps := make([]replica.Endpoint, 12)
	down := map[string]bool{}
	for i := range eps {
		eps[i] = replica.Endpoint{ID: fmt.Sprintf("n%02d", i)}
		d.Heartbeat(eps[i].ID, time.Now())
		down[eps[i].ID] = false
	}
	ref := &cowLiveness{}
	ref.down.Store(&down)
	d.ReportOutcome(replica.Outcome{Endpoint: eps[0], Err: replica.ErrConnectionFailed})
	b.Run("impl=detector", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				_ = d.IsAlive(eps[i%len(eps)])
			}
		})
	})
	b.Run("impl=cow-map", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				_ = ref.isAlive(eps[i%len(eps)])
			}
		})
	})
}

// A detector learning every node of a cluster from its first heartbeats,
// as at a coordinator's start. The cost per node must not grow with the
// cluster as it did when each new node copied IsAlive's map: 5,000 nodes
// then cost 55× what 500 did.
func BenchmarkDetectorLearn(b *testing.B) {
	for _, n := range []int{500, 5000} {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("10.%d.%d.%d:7000", i>>16, i>>8&255, i&255)
		}
		at := time.Now()
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d, _ := ring.NewDetector(ring.DetectorConfig{})
				for _, id := range ids {
					d.Heartbeat(id, at)
				}
				d.Close()
			}
		})
	}
}

// n nodes failing at once, each first heard of by its connection failure
// (a coordinator without gossip whose own network flaps): the cost per
// node must not grow with the cluster, as it did when each first failure
// copied IsAlive's map. One failure each, of the two that convict.
func BenchmarkDetectorMassFailure(b *testing.B) {
	for _, n := range []int{500, 5000} {
		outs := make([]replica.Outcome, n)
		for i := range outs {
			id := fmt.Sprintf("10.%d.%d.%d:9042", i>>16, i>>8&255, i&255)
			outs[i] = replica.Outcome{Endpoint: replica.Endpoint{ID: id}, Err: replica.ErrConnectionFailed}
		}
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d, _ := ring.NewDetector(ring.DetectorConfig{ConnectionFailures: 2})
				for _, o := range outs {
					d.ReportOutcome(o)
				}
				d.Close()
			}
		})
	}
}

// cowLiveness is a read-mostly map as a careful engineer writes it: an
// immutable map behind an atomic pointer, copied on each (rare) change.
// (A sync.Mutex around a map, the reference before, took twice as long on
// one core and four times on two.)
type cowLiveness struct {
	down atomic.Pointer[map[string]bool]
}

func (c *cowLiveness) isAlive(ep replica.Endpoint) bool { return !(*c.down.Load())[ep.ID] }

// A node joining and leaving a ring of 1,000 nodes of 16 tokens (the 4.x
// default) with two tables, beside the same two topologies built afresh,
// which is what a change cost when every range was placed again. Gossip
// reports nodes one at a time, so this is the price of each, and a ring
// learned node by node pays it a thousand times. The wide case is 30
// nodes of 256 tokens in five datacenters, factor 3 in each: a change
// reaches three quarters of the ranges there, and cost 1.08 times a
// rebuild when it walked each twice (0286517). In the newrack case the joining
// node is the first on a sixth rack of its datacenter, at factor 3: it
// cost as much as a rebuild when the racks beyond the factor counted as a
// change of quota.
func BenchmarkTopologyChange(b *testing.B) {
	nodes := randomNodes(3, 1001, 16, 2, 3)
	benchTopologyChange(b, "", nodes, tables)
	rack := randomNodes(3, 1001, 16, 2, 5) // the joining node the first on a sixth rack
	rack[1000].Rack = "r6"
	benchTopologyChange(b, "newrack/", rack, map[string]consistency.Replication{"t": consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})})
	wide := randomNodes(3, 31, 256, 5, 3)
	benchTopologyChange(b, "wide/", wide, map[string]consistency.Replication{"t": consistency.NetworkTopology(
		map[string]int{"dc1": 3, "dc2": 3, "dc3": 3, "dc4": 3, "dc5": 3})})
}

// benchTopologyChange runs the last of nodes joining and leaving the
// others, beside the two rings built afresh.
func benchTopologyChange(b *testing.B, prefix string, nodes []ring.Node, tables map[string]consistency.Replication) {
	replicas := map[string]replica.Replica{}
	for _, n := range nodes {
		replicas[n.ID] = replicatest.NewReplica(n.Endpoint())
	}
	connect := func(n ring.Node) (replica.Replica, error) { return replicas[n.ID], nil }
	build := func(nodes []ring.Node) *ring.Locator {
		l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Tables: tables, Connect: connect})
		if err != nil {
			b.Fatal(err)
		}
		return l
	}
	last := len(nodes) - 1
	joining := nodes[last]
	b.Run(prefix+"impl=update", func(b *testing.B) {
		l := build(nodes[:last])
		b.ReportAllocs()
		for b.Loop() {
			if err := l.AddNode(joining); err != nil {
				b.Fatal(err)
			}
			if err := l.RemoveNode(joining.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(prefix+"impl=rebuild", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			build(nodes)
			build(nodes[:last])
		}
	})
}

// Placing every range of n nodes of 16 tokens in one datacenter whose
// second rack holds a single node, at factor 3: each walk must find that
// node. The cost per range must not grow with the ring, as it did when
// every walk crossed about the ring to find it: 1,000 nodes cost 67 times
// what 100 did.
func BenchmarkShortRackPlacement(b *testing.B) {
	tables := map[string]consistency.Replication{"t": consistency.NetworkTopology(map[string]int{"dc1": 3})}
	for _, n := range []int{100, 1000} {
		nodes := randomNodes(3, n, 16, 1, 1)
		nodes[0].Rack = "alone"
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Tables: tables, Connect: new(connector).connect}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// ReplicasFor at one token after another, on rings of 12 and 1,000 nodes
// of 16 tokens in two datacenters, at factor 3 in each: the cost of a
// call must not grow with the ring (it did while each call made flags
// for every node: 1,000 nodes cost 1.95 times what 12 did on one core,
// 2.7 times on two).
func BenchmarkReplicasFor(b *testing.B) {
	repl := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
	for _, n := range []int{12, 1000} {
		r, err := ring.New(randomNodes(7, n, 16, 2, 3))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			token := int64(0)
			for b.Loop() {
				if _, err := r.ReplicasFor(token, repl); err != nil {
					b.Fatal(err)
				}
				token += 0x1E3779B97F4A7C15 // another range each call
			}
		})
	}
}

// BenchmarkPlacementBytes reports the heap that a Locator's kept
// placements (LocatePlacement) hold, per placement, over 5 datacenters of
// 30 nodes of 256 tokens with 3 replicas in each: 15 replicas a range. Its
// reference is BenchmarkLocatorBytes, the Locator's own heap per range.
func BenchmarkPlacementBytes(b *testing.B) {
	var per float64
	for b.Loop() {
		l := wideLocator(b)
		before := heapAfterGC()
		n := placeKeys(b, l, 400_000)
		per = float64(heapAfterGC()-before) / float64(n)
		runtime.KeepAlive(l)
	}
	b.ReportMetric(per, "B/item")
}

// placeKeys asks l for the placements of n keys and returns how many
// placements it made; its own set of them is garbage once it returns.
func placeKeys(b *testing.B, l *ring.Locator, n int) int {
	seen := map[*coordinator.Placement]bool{}
	for i := range n {
		p, err := l.LocatePlacement("t", strconv.Itoa(i))
		if err != nil {
			b.Fatal(err)
		}
		seen[p] = true
	}
	return len(seen)
}

// BenchmarkLocatorBytes is the reference for BenchmarkPlacementBytes: the
// heap a Locator of the same nodes holds, connections included, per range.
func BenchmarkLocatorBytes(b *testing.B) {
	var per float64
	for b.Loop() {
		before := heapAfterGC()
		l := wideLocator(b)
		per = float64(heapAfterGC()-before) / float64(len(l.Ring().Tokens()))
		runtime.KeepAlive(l)
	}
	b.ReportMetric(per, "B/item")
}

// wideLocator places one table, 3 replicas in each of 5 datacenters, over
// 30 nodes of 256 tokens in each.
func wideLocator(b *testing.B) *ring.Locator {
	rf := map[string]int{}
	for d := range 5 {
		rf[fmt.Sprintf("dc%d", d+1)] = 3
	}
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: randomNodes(3, 150, 256, 5, 3), Connect: new(connector).connect,
		Tables: map[string]consistency.Replication{"t": consistency.NetworkTopology(rf)}})
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// heapAfterGC is the live heap, once collected.
func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
