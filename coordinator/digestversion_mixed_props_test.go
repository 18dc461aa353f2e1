package coordinator_test

import (
	"context"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// During a rolling upgrade some replicas of a key know digest version 1
// only (v1Only, which fails any command of another version). Over random
// data in the whole data model, held by every replica (as written, or
// compacted by repair.Merge), random levels, strategies, speculation,
// queries and column selections: a read asks every replica for a version
// it knows, never calls a mismatch, and repairs nothing. Then a write one
// replica missed: a BLOCKING read at ALL mismatches and repairs it, and
// the next read at ALL matches again (no mismatch on every read).
func TestMixedDigestVersionsMatchEqualData(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) { inBubble(t, func() { runMixedVersions(rt) }) })
}

func runMixedVersions(t *rapid.T) {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3), Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(replicatest.Behavior{Latency: replicatest.Constant(ms(1))})},
	})
	if err != nil {
		t.Fatalf("cluster: %v", err)
	}
	var writes []replica.Partition
	for range rapid.IntRange(1, 6).Draw(t, "writes") {
		writes = append(writes, cvWrite(t, rapid.Bool().Draw(t, "recent"), false))
	}
	merged, err := repair.Merge(writes...)
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	reps, _, err := cl.Locate(tbl, key)
	if err != nil {
		t.Fatalf("locate: %v", err)
	}
	old := map[string]bool{}
	for _, r := range reps {
		id := r.Endpoint().ID
		old[id] = rapid.Bool().Draw(t, "v1 only "+id)
		if rapid.Bool().Draw(t, "compacted "+id) {
			err = cl.SeedOn(tbl, merged, id)
		} else {
			for _, w := range writes {
				if err = cl.Replica(id).Apply(context.Background(), replica.Mutation{Table: tbl, Partition: w}); err != nil {
					break
				}
			}
		}
		if err != nil {
			t.Fatalf("store on %s: %v", id, err)
		}
	}
	spec, _ := latency.ParseSpeculativeRetry(rapid.SampledFrom([]string{"NEVER", "ALWAYS", "2ms", "99p"}).Draw(t, "spec"))
	opts := coordinator.TableOptions{SpeculativeRetry: spec,
		Strategy: rapid.SampledFrom([]coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst}).Draw(t, "strategy")}
	loc := wrapping(cl, len(reps), func(r replica.Replica) replica.Replica {
		if old[r.Endpoint().ID] {
			return v1Only{r}
		}
		return r
	})
	c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: cl, ReadTimeout: time.Second,
		Tables: map[string]coordinator.TableOptions{tbl: opts}})
	if err != nil {
		t.Fatalf("coordinator: %v", err)
	}
	defer func() { c.Close(); time.Sleep(time.Second) }()
	level := rapid.SampledFrom([]consistency.Level{consistency.One, consistency.Two, consistency.Quorum, consistency.All}).Draw(t, "level")
	req := coordinator.Request{Table: tbl, Key: key, Level: level, Query: modelQuery(t), Columns: rpColumns(t), NowInSec: cvNow}
	res, err := c.Read(context.Background(), req)
	if err != nil {
		t.Fatalf("read of equal data, old nodes %v: %v", old, err)
	}
	if res.Trace.DigestMismatch || len(res.Trace.Repaired) > 0 {
		t.Fatalf("equal data mismatched (old nodes %v): repaired %v\n%v", old, res.Trace.Repaired, res.Trace)
	}

	// A write one replica missed is repaired once, then matches.
	extra := cvWrite(t, true, false)
	missed := reps[rapid.IntRange(0, len(reps)-1).Draw(t, "missed")].Endpoint().ID
	for _, r := range reps {
		if id := r.Endpoint().ID; id != missed {
			if err := cl.Replica(id).Apply(context.Background(), replica.Mutation{Table: tbl, Partition: extra}); err != nil {
				t.Fatalf("apply: %v", err)
			}
		}
	}
	req.Level = consistency.All
	if _, err := c.Read(context.Background(), req); err != nil {
		t.Fatalf("read at ALL: %v", err)
	}
	time.Sleep(time.Second) // any repair write left to the queue lands
	again, err := c.Read(context.Background(), req)
	if err != nil {
		t.Fatalf("second read at ALL: %v", err)
	}
	if again.Trace.DigestMismatch {
		t.Fatalf("the read after a repair mismatched again (old nodes %v, missed %s): repaired %v\n%v",
			old, missed, again.Trace.Repaired, again.Trace)
	}
}
