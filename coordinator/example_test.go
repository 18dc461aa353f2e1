package coordinator_test

import (
	"context"
	"fmt"
	"log"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
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

// A query of the newest rows of a partition, read a page at a time, over
// replicas that disagree: one of them deleted a row the others still hold,
// and short-read protection finds the rows that make up each page.
func ExampleCoordinator_Read_paging() {
	cluster, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		log.Fatal(err)
	}
	var rows []replica.Row
	for _, day := range []string{"01", "02", "03", "04", "05"} {
		rows = append(rows, replica.NewRow("2024-01-"+day, replica.Live("event", "login", 1000)))
	}
	all := replica.NewPartition("user:42", rows...)
	cluster.Seed("events", all)
	cluster.Pin("events", "user:42", "dc1-r1-n1", "dc1-r2-n2", "dc1-r3-n3")
	deleted, err := repair.Merge(all, replica.NewPartition("user:42",
		replica.NewRow("2024-01-04").WithDeletion(replica.DeletedAt(2000, 1700000000))))
	if err != nil {
		log.Fatal(err)
	}
	cluster.SeedOn("events", deleted, "dc1-r1-n1") // only this replica saw the deletion

	c, err := coordinator.New(coordinator.Config{Locator: cluster, Liveness: cluster})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	req := coordinator.Request{Table: "events", Key: "user:42", Level: consistency.All,
		Query:    replica.Query{Reversed: true, Limit: 2}, // newest first, two a page
		NowInSec: 1700000100}                              // the deletion was made 100 s before
	for page := 1; ; page++ {
		res, err := c.Read(context.Background(), req)
		if err != nil {
			log.Fatal(err)
		}
		var days []string
		rows := res.Visible().Rows // in clustering order: walk them back, newest first
		for i := len(rows) - 1; i >= 0; i-- {
			days = append(days, rows[i].Clustering)
		}
		fmt.Println("page", page, days, "short-read requests so far:", c.Metrics().Total.ShortReadRequests)
		if res.PagingState == nil {
			break
		}
		req.PagingState = res.PagingState
	}
	// Output:
	// page 1 [2024-01-05 2024-01-03] short-read requests so far: 2
	// page 2 [2024-01-02 2024-01-01] short-read requests so far: 2
	// page 3 [] short-read requests so far: 2
}

// The three newest events of each of three users, read in pages of five:
// SELECT … WHERE user IN (…) PER PARTITION LIMIT 3, with a fetch size of
// 5. The first page cuts the second user after two events; the next
// resumes after them, reads that user's third, and the third user's three.
func ExampleManyRequest_Next() {
	cluster, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		log.Fatal(err)
	}
	users := []string{"user:1", "user:2", "user:3"}
	for _, u := range users {
		var rows []replica.Row
		for _, day := range []string{"01", "02", "03", "04", "05"} {
			rows = append(rows, replica.NewRow("2024-01-"+day, replica.Live("event", "login", 1000)))
		}
		cluster.Seed("events", replica.NewPartition(u, rows...))
	}
	c, err := coordinator.New(coordinator.Config{Locator: cluster, Liveness: cluster})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	req := coordinator.ManyRequest{Table: "events", Keys: users, Level: consistency.Quorum,
		Query: replica.Query{Reversed: true, Limit: 3}, PageSize: 5}
	for page, more := 1, true; more; page++ {
		results, err := c.ReadMany(context.Background(), req)
		if err != nil {
			log.Fatal(err)
		}
		for _, kr := range results {
			if kr.Err != nil {
				log.Fatal(kr.Err)
			}
			fmt.Println("page", page, kr.Key, "events:", len(kr.Result.Visible().Rows), "cut:", kr.Cut)
		}
		req, more = req.Next(results)
	}
	// Output:
	// page 1 user:1 events: 3 cut: false
	// page 1 user:2 events: 2 cut: true
	// page 2 user:2 events: 1 cut: false
	// page 2 user:3 events: 3 cut: false
}
