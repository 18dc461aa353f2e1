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

// A server that answers each read with the client's view, then releases
// the result: the next read whose replicas disagree merges into the memory
// of this one's merge. The view stays the caller's.
func ExampleResult_Release() {
	cluster, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		log.Fatal(err)
	}
	cluster.Seed("users", replica.NewPartition("user:42", replica.NewRow("", replica.Live("email", "ada@new.example", 2000))))
	cluster.Pin("users", "user:42", "dc1-r1-n1", "dc1-r2-n2", "dc1-r3-n3")
	cluster.SeedOn("users", replica.NewPartition("user:42", replica.NewRow("", replica.Live("email", "ada@old.example", 1000))), "dc1-r2-n2")

	c, err := coordinator.New(coordinator.Config{Locator: cluster, Liveness: cluster, LocalDatacenter: "dc1"})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	res, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: "user:42", Level: consistency.Quorum})
	if err != nil {
		log.Fatal(err)
	}
	view := res.Visible() // the client's copy
	res.Release()         // res.Partition is empty from here on
	fmt.Println(view)
	fmt.Println("merged:", res.Trace.DigestMismatch, "rows left in res:", len(res.Partition.Rows))
	// Output:
	// view "user:42": row "" {email="ada@new.example"@2000}
	// merged: true rows left in res: 0
}
