package coordinator_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A round of short-read protection allocates its round's channel and its
// continuation's query, nothing else that grows with the rounds: its
// merge's scratch, list of versions and values, the candidates it weighs
// and the replicas it asks are reused from round to round, and whether a
// replica has rows left is asked in place. A read at ALL with LIMIT 10
// over 2,000 rows of which two replicas deleted the partition makes 100
// rounds more than over 1,000, and at most 300 allocations more (it made
// 800 more: eight a round).
func TestShortReadRoundsAllocateOnlyTheirRequests(t *testing.T) {
	race.SkipPooledAllocs(t)
	perRead := func(rows int) float64 {
		c, req := missedDeletion(t, rows)
		return testing.AllocsPerRun(20, func() {
			if res, err := c.Read(context.Background(), req); err != nil || !res.Visible().IsEmpty() {
				t.Fatalf("%v, %d rows", err, len(res.Visible().Rows))
			}
		})
	}
	small, large := perRead(1000), perRead(2000)
	if large-small > 300 {
		t.Fatalf("reads of 100 rounds more allocate %v objects more (%v, %v); want at most 300", large-small, small, large)
	}
}

// missedDeletion is a coordinator over three replicas, one holding rows
// live rows and two a later deletion of the partition, and a read at ALL
// with LIMIT 10 of it, without read repair: short-read protection asks the
// first for ten rows after its last rows/10 times.
func missedDeletion(t *testing.T, rows int) (*coordinator.Coordinator, coordinator.Request) {
	const now = 1_700_000_000
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		t.Fatal(err)
	}
	live := make([]replica.Row, rows)
	for i := range live {
		live[i] = replica.NewRow(fmt.Sprintf("row%06d", i), replica.Live("v", "value", 1))
	}
	reps := cl.Replicas()[:3]
	for i, r := range reps {
		p := replica.Partition{Key: "k"}.WithDeletion(replica.DeletedAt(2, now-10))
		if i == 0 {
			p = replica.NewPartition("k", live...)
		}
		if err := r.Seed("t", p); err != nil {
			t.Fatal(err)
		}
	}
	c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1",
		DefaultTable: coordinator.TableOptions{ReadRepair: repair.None}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, coordinator.Request{Table: "t", Key: "k", Level: consistency.All, Query: replica.Query{Limit: 10}, NowInSec: now}
}
