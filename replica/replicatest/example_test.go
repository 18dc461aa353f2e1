package replicatest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A three-replica cluster in which one replica is in a stop-the-world GC
// pause: its read is still waiting when its 500 ms deadline passes, while
// the other two answer at once. (Inside a testing/synctest bubble the same
// test runs in no wall time and sees exact virtual times.)
func Example() {
	c, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		panic(err)
	}
	ada := replica.NewPartition("ada", replica.NewRow("", replica.Live("email", "ada@example.com", 1)))
	if err := c.Seed("users", ada); err != nil {
		panic(err)
	}
	gc := replicatest.Window{Start: 0, End: time.Hour} // from the cluster's start
	if err := c.Replica("dc1-r2-n2").AddPause(gc); err != nil {
		panic(err)
	}

	replicas, rf, _ := c.Locate("users", "ada")
	fmt.Println("replication:", rf)
	for _, r := range replicas {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		resp, err := r.Read(ctx, replica.Command{Table: "users", Key: "ada"})
		cancel()
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %s\n", r.Endpoint().ID, resp.Partition.Rows[0].Cells[0].Value)
	}
	fmt.Println(c.Replica("dc1-r2-n2").Stats())
	// Output:
	// replication: Simple(3)
	// replicatest: read on dc1-r2-n2: context deadline exceeded
	// dc1-r1-n1: ada@example.com
	// dc1-r3-n3: ada@example.com
	// reads 1 (data 1, digest 0), mutations 0, cancellations 1, errors 0 (overloaded 0), panics 0, late 0, in flight 0
}

// A stale replica: seeded with an older version, it answers a digest that
// differs from its peers' until read repair applies what it lacks.
func ExampleReplica_Seed() {
	newer := replica.NewPartition("k", replica.NewRow("", replica.Live("v", "new", 2)))
	older := replica.NewPartition("k", replica.NewRow("", replica.Live("v", "old", 1)))
	fresh := replicatest.NewReplica(replica.Endpoint{ID: "n1"})
	stale := replicatest.NewReplica(replica.Endpoint{ID: "n2"})
	_ = fresh.Seed("t", newer)
	_ = stale.Seed("t", older)

	ctx := context.Background()
	digestOf := func(r *replicatest.Replica) string {
		resp, _ := r.Read(ctx, replica.Command{Table: "t", Key: "k", DigestOnly: true})
		return resp.Digest.String()[:8]
	}
	fmt.Println("digests agree:", digestOf(fresh) == digestOf(stale))
	_ = stale.Apply(ctx, replica.Mutation{Table: "t", Partition: newer})
	fmt.Println("after repair:", digestOf(fresh) == digestOf(stale))
	fmt.Println(stale.Stats().DigestReads, "digest reads,", stale.Stats().Mutations, "mutation")
	// Output:
	// digests agree: false
	// after repair: true
	// 2 digest reads, 1 mutation
}
