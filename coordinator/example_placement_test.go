package coordinator_test

import (
	"context"
	"fmt"
	"log"
	"sync"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// keptPlacements is a PlacementLocator over a Locator whose answers are
// the same for a key until the topology changes: it checks each key's
// answer once and keeps it. (A token ring keeps one per range, as
// ring.Locator does; drop them when the topology changes.)
type keptPlacements struct {
	coordinator.Locator
	mu   sync.Mutex
	kept map[[2]string]*coordinator.Placement
}

func (k *keptPlacements) LocatePlacement(table, key string) (*coordinator.Placement, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if p := k.kept[[2]string{table, key}]; p != nil {
		return p, nil
	}
	reps, repl, err := k.Locate(table, key)
	if err != nil {
		return nil, err
	}
	p, err := coordinator.NewPlacement(reps, repl)
	if err != nil {
		return nil, err // wraps coordinator.ErrBadPlacement
	}
	k.kept[[2]string{table, key}] = p
	return p, nil
}

// A locator that keeps its answers hands them out checked, as Placements:
// reads then skip checking them, and a LOCAL_QUORUM read looks at the
// local datacenter's replicas alone.
func ExamplePlacementLocator() {
	cluster, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}, {Name: "dc2", Racks: 3, Nodes: 3}},
		Replication: consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}),
	})
	if err != nil {
		log.Fatal(err)
	}
	locator := &keptPlacements{Locator: cluster, kept: map[[2]string]*coordinator.Placement{}}
	c, err := coordinator.New(coordinator.Config{Locator: locator, Liveness: cluster, LocalDatacenter: "dc2"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	p, _ := locator.LocatePlacement("users", "user:42")
	fmt.Println(len(p.Replicas()), "replicas,", p.Replication())
	res, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: "user:42", Level: consistency.LocalQuorum})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res.Trace.Requests {
		fmt.Println(r.Kind, "request to a replica in", r.Endpoint[:3])
	}
	// Output:
	// 6 replicas, NetworkTopology(dc1:3, dc2:3)
	// data request to a replica in dc2
	// digest request to a replica in dc2
}
