package coordinator_test

import (
	"context"
	"fmt"
	"log"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A QUORUM read over three fake replicas, one of them holding an older
// version: the read returns the newest and repairs the stale replica.
func ExampleCoordinator_Read() {
	cluster, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		log.Fatal(err)
	}
	newer := replica.NewPartition("user:42", replica.NewRow("", replica.Live("email", "ada@new.example", 2000)))
	older := replica.NewPartition("user:42", replica.NewRow("", replica.Live("email", "ada@old.example", 1000)))
	cluster.Seed("users", newer)
	cluster.Pin("users", "user:42", "dc1-r1-n1", "dc1-r2-n2", "dc1-r3-n3")
	cluster.SeedOn("users", older, "dc1-r2-n2")

	c, err := coordinator.New(coordinator.Config{Locator: cluster, Liveness: cluster, LocalDatacenter: "dc1"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: "user:42", Level: consistency.Quorum})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Visible()) // what a client sees at the read's time
	fmt.Println("digest mismatch:", res.Trace.DigestMismatch, "repaired:", res.Trace.Repaired)
	p, _ := cluster.Replica("dc1-r2-n2").Partition("users", "user:42")
	fmt.Println("dc1-r2-n2 now holds:", string(p.Rows[0].Cells[0].Value))
	// Output:
	// view "user:42": row "" {email="ada@new.example"@2000}
	// digest mismatch: true repaired: [dc1-r2-n2]
	// dc1-r2-n2 now holds: ada@new.example
}
