package replicatest_test

import (
	"strconv"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"pgregory.net/rapid"
)

// clusterShape draws datacenters and a replication they can hold.
func clusterShape(t *rapid.T) replicatest.ClusterConfig {
	n := rapid.IntRange(1, 3).Draw(t, "datacenters")
	cfg := replicatest.ClusterConfig{
		Seed: rapid.Uint64().Draw(t, "seed"), TokensPerNode: rapid.IntRange(1, 8).Draw(t, "tokens"),
	}
	factors := map[string]int{}
	total := 0
	for i := range n {
		nodes := rapid.IntRange(1, 7).Draw(t, "nodes")
		d := replicatest.Datacenter{Name: "dc" + strconv.Itoa(i+1), Nodes: nodes, Racks: rapid.IntRange(0, nodes).Draw(t, "racks")}
		cfg.Datacenters = append(cfg.Datacenters, d)
		factors[d.Name] = rapid.IntRange(0, nodes).Draw(t, "factor")
		total += nodes
	}
	if rapid.Bool().Draw(t, "simple") {
		cfg.Replication = consistency.Simple(rapid.IntRange(1, total).Draw(t, "rf"))
	} else {
		factors["dc1"] = max(factors["dc1"], 1)
		cfg.Replication = consistency.NetworkTopology(factors)
	}
	return cfg
}

// Every key gets exactly its replication's replicas, distinct, per
// datacenter, spread over as many racks as the factor allows.
func TestPlacementLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := clusterShape(t)
		c, err := replicatest.NewCluster(cfg)
		if err != nil {
			t.Fatalf("NewCluster(%+v): %v", cfg, err)
		}
		key := rapid.String().Draw(t, "key")
		rs, rep, err := c.Locate("t", key)
		if err != nil {
			t.Fatal(err)
		}
		checkPlacement(t, cfg, rep, rs)
	})
}

func checkPlacement(t *rapid.T, cfg replicatest.ClusterConfig, rep consistency.Replication, rs []replica.Replica) {
	if len(rs) != rep.Total() {
		t.Fatalf("%d replicas under %v", len(rs), rep)
	}
	seen := map[string]bool{}
	perDC := map[string]int{}
	racks := map[string]map[string]bool{}
	for _, r := range rs {
		ep := r.Endpoint()
		if seen[ep.ID] {
			t.Fatalf("%s placed twice", ep.ID)
		}
		seen[ep.ID] = true
		perDC[ep.Datacenter]++
		if racks[ep.Datacenter] == nil {
			racks[ep.Datacenter] = map[string]bool{}
		}
		racks[ep.Datacenter][ep.Rack] = true
	}
	if rep.IsSimple() {
		return
	}
	for _, d := range cfg.Datacenters {
		if perDC[d.Name] != rep.Factor(d.Name) {
			t.Fatalf("%s holds %d replicas under %v", d.Name, perDC[d.Name], rep)
		}
		if want := min(rep.Factor(d.Name), max(d.Racks, 1)); len(racks[d.Name]) != want {
			t.Fatalf("%s: replicas on %d racks, want %d", d.Name, len(racks[d.Name]), want)
		}
	}
}
