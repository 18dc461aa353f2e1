package ring_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// A key's token is Cassandra's: a text key hashes its UTF-8 bytes, a
// partition key of several columns hashes their CompositeKey encoding.
func ExampleMurmur3Token() {
	fmt.Println(ring.Murmur3Token([]byte("123")))

	userID := []byte{0, 0, 0, 42}  // an int column: 4 big-endian bytes
	bucket := []byte("2026-01-01") // a text column
	key, _ := ring.CompositeKey(userID, bucket)
	fmt.Printf("%x\n", key)
	// Output:
	// -7468325962851647638
	// 00040000002a00000a323032362d30312d303100
}

// Placement under NetworkTopologyStrategy: dc1 has two racks for three
// replicas, so one rack holds two of them.
func ExampleRing_ReplicasFor() {
	r, err := ring.New([]ring.Node{
		{ID: "a", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-300}},
		{ID: "b", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-200}},
		{ID: "c", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-100}},
		{ID: "d", Datacenter: "dc1", Rack: "r2", Tokens: []int64{0}},
		{ID: "e", Datacenter: "dc2", Rack: "r1", Tokens: []int64{100}},
	})
	if err != nil {
		log.Fatal(err)
	}
	nodes, _ := r.ReplicasFor(-250, consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 1}))
	for _, n := range nodes {
		fmt.Print(n.ID, " ")
	}
	fmt.Println()
	// Output: b c d e
}

// A Locator and a Detector wired into a coordinator: the Locator places
// keys on the ring, the Detector keeps convicted replicas out of reads.
func Example_coordinator() {
	nodes := []ring.Node{
		{ID: "n1", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-6e18, 1e18}},
		{ID: "n2", Datacenter: "dc1", Rack: "r2", Tokens: []int64{-3e18, 4e18}},
		{ID: "n3", Datacenter: "dc1", Rack: "r3", Tokens: []int64{0, 7e18}},
	}
	loc, err := ring.NewLocator(ring.LocatorConfig{
		Nodes:  nodes,
		Tables: map[string]consistency.Replication{"users": consistency.NetworkTopology(map[string]int{"dc1": 3})},
		Connect: func(n ring.Node) (replica.Replica, error) {
			return replicatest.NewReplica(n.Endpoint()), nil // your RPC client here
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	// Replicas: probes of a convicted node go through its current
	// connection, which a ReplaceNode under the same ID renews.
	det, err := ring.NewDetector(ring.DetectorConfig{Replicas: loc.Replica})
	if err != nil {
		log.Fatal(err)
	}
	defer det.Close()
	c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: det, LocalDatacenter: "dc1"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	// A node refuses connections: its first connection failure convicts it.
	n2, _ := loc.Replica("n2")
	det.ReportOutcome(replica.Outcome{Replica: n2, Endpoint: n2.Endpoint(), Err: replicatest.ErrDown})
	fmt.Println("n2 alive:", det.IsAlive(n2.Endpoint()))

	_, err = c.Read(context.Background(), coordinator.Request{Table: "users", Key: "user:42", Level: consistency.LocalQuorum})
	fmt.Println("LOCAL_QUORUM read:", err)
	_, err = c.Read(context.Background(), coordinator.Request{Table: "users", Key: "user:42", Level: consistency.All})
	fmt.Println("ALL read:", err)
	// Output:
	// n2 alive: false
	// LOCAL_QUORUM read: <nil>
	// ALL read: Cannot achieve consistency level ALL (3 required but only 2 alive)
}

// The phi of a node whose heartbeats come every second: 8 is crossed
// after about 18.4 s of silence.
func ExampleArrivalWindow() {
	w, _ := ring.NewArrivalWindow(1000, time.Second, 2*time.Second)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 10 {
		w.Add(start.Add(time.Duration(i) * time.Second))
	}
	last, _ := w.Last()
	fmt.Printf("phi after 10 s of silence: %.2f\n", w.Phi(last.Add(10*time.Second)))
	fmt.Println("convicted after:", w.SilenceBound(8).Round(time.Millisecond))
	// Output:
	// phi after 10 s of silence: 4.34
	// convicted after: 18.421s
}

// A node that leaves the ring for good is forgotten: otherwise it stays
// convicted, listed in Down and probed, for as long as the detector runs.
func ExampleDetector_Forget() {
	det, _ := ring.NewDetector(ring.DetectorConfig{})
	defer det.Close()
	n07 := replica.Endpoint{ID: "n07", Datacenter: "dc1", Rack: "r1"}
	det.ReportOutcome(replica.Outcome{Endpoint: n07, Err: replica.ErrConnectionFailed}) // it went away
	fmt.Println("down:", det.Down())
	det.Forget("n07") // decommissioned: removed from the ring for good
	fmt.Println("down after Forget:", det.Down())
	// Output:
	// down: [n07]
	// down after Forget: []
}
