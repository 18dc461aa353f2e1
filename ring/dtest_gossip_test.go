package ring_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// gossipCluster is ccm's cluster as the read path sees it: a Locator over
// ccmNodes, replicatest replicas holding each user on its replicas, and a
// Detector (wired as the README says) fed one heartbeat a second by every
// node of the ring that has not been stopped.
type gossipCluster struct {
	nodes   []ring.Node
	loc     *ring.Locator
	det     *ring.Detector
	reps    map[string]*replicatest.Replica
	stopped sync.Map // node ID -> true while stopped
	// connectSeeded holds the users a node connected from then on holds
	// when its connection is made, as a node that streamed them.
	connectSeeded map[int32]bool
}

func newGossipCluster(t *testing.T, repl consistency.Replication, counts ...int) *gossipCluster {
	t.Helper()
	g := &gossipCluster{nodes: ccmNodes(counts...), reps: map[string]*replicatest.Replica{}}
	loc, err := ring.NewLocator(ring.LocatorConfig{Nodes: g.nodes,
		Tables: map[string]consistency.Replication{"users": repl},
		Connect: func(n ring.Node) (replica.Replica, error) {
			r := replicatest.NewReplica(n.Endpoint())
			g.reps[n.ID] = r
			for k := range g.connectSeeded { // what it streamed before it joins
				if err := r.Seed("users", userRow(k)); err != nil {
					return nil, err
				}
			}
			return r, r.SetLatency(replicatest.Constant(time.Millisecond))
		}})
	if err != nil {
		t.Fatal(err)
	}
	g.loc = loc
	if g.det, err = ring.NewDetector(ring.DetectorConfig{Seed: 1, Replicas: loc.Replica}); err != nil {
		t.Fatal(err)
	}
	for k := range int32(dtestUsers) { // each user on its replicas
		reps, _, err := loc.Locate("users", string(intKey(k)))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			if err := g.reps[r.Endpoint().ID].Seed("users", userRow(k)); err != nil {
				t.Fatal(err)
			}
		}
	}
	done := make(chan struct{})
	gossiped := make(chan struct{})
	go func() { // every live node's heartbeat, each second
		defer close(gossiped)
		for {
			for _, n := range g.loc.Ring().Nodes() {
				if stopped, _ := g.stopped.Load(n.ID); stopped != true {
					g.det.Heartbeat(n.ID, time.Now())
				}
			}
			select {
			case <-done:
				return
			case <-time.After(time.Second):
			}
		}
	}()
	t.Cleanup(func() { close(done); <-gossiped; g.det.Close() })
	time.Sleep(10 * time.Second) // the window learns the 1 s interval
	return g
}

const dtestUsers = 100

func userRow(k int32) replica.Partition {
	return replica.NewPartition(string(intKey(k)), replica.NewRow("", replica.Live("age", "30", 1)))
}

// stop stops node id as ccm's node.stop(wait_other_notice=True): its
// heartbeats end, its connections are refused, and it returns once the
// detector has convicted it. It returns how long that took.
func (g *gossipCluster) stop(t *testing.T, id string) time.Duration {
	t.Helper()
	start := time.Now()
	g.stopped.Store(id, true)
	if err := g.reps[id].SetFault(replicatest.Down()); err != nil {
		t.Fatal(err)
	}
	ep := g.reps[id].Endpoint()
	for g.det.IsAlive(ep) {
		if time.Since(start) > time.Minute {
			t.Fatalf("%s never convicted", id)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start)
}

func (g *gossipCluster) coordinator(t *testing.T, localDC string) *coordinator.Coordinator {
	t.Helper()
	c, err := coordinator.New(coordinator.Config{Locator: g.loc, Liveness: g.det, Outcomes: g.det, LocalDatacenter: localDC})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// start starts node id again: its connections are accepted and its
// heartbeats resume. It returns once the detector has readmitted it, and
// how long that took.
func (g *gossipCluster) start(t *testing.T, id string) time.Duration {
	t.Helper()
	begin := time.Now()
	if err := g.reps[id].SetFault(replicatest.Fault{}); err != nil {
		t.Fatal(err)
	}
	g.stopped.Store(id, false)
	ep := g.reps[id].Endpoint()
	for !g.det.IsAlive(ep) {
		if time.Since(begin) > time.Minute {
			t.Fatalf("%s never readmitted", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(begin)
}

// stream does what decommission and removenode do before a node leaves:
// every user's replicas on the ring without node id get the user's row,
// from the replicas that hold it now.
func (g *gossipCluster) stream(t *testing.T, id string, repl consistency.Replication) {
	t.Helper()
	after, err := g.loc.Ring().Without(id)
	if err != nil {
		t.Fatal(err)
	}
	for k := range int32(dtestUsers) {
		owners, err := after.ReplicasFor(ring.Murmur3Token(intKey(k)), repl)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range owners {
			if err := g.reps[n.ID].Seed("users", userRow(k)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// readEvery reads every user at l, as cassandra-stress's read phase and
// the dtest's query_c1c2 do; any error or missing row fails it. It returns
// how many requests went to each node.
func readEvery(c *coordinator.Coordinator, l consistency.Level) (map[string]int, error) {
	sent := map[string]int{}
	for k := range int32(dtestUsers) {
		res, err := c.Read(context.Background(), coordinator.Request{Table: "users", Key: string(intKey(k)), Level: l})
		for _, r := range res.Trace.Requests {
			sent[r.Endpoint]++
		}
		if err != nil {
			return sent, fmt.Errorf("user %d at %s: %w", k, l, err)
		}
		if len(res.Partition.Rows) != 1 {
			return sent, fmt.Errorf("user %d at %s: %d rows, want 1", k, l, len(res.Partition.Rows))
		}
	}
	return sent, nil
}

// join adds node n as bootstrap does: the users of its ranges are streamed
// to it, then it joins the ring (start begins its heartbeats). It returns
// how many users it owns.
func (g *gossipCluster) join(t *testing.T, n ring.Node, repl consistency.Replication) int {
	t.Helper()
	after, err := g.loc.Ring().With(n)
	if err != nil {
		t.Fatal(err)
	}
	streamed := map[int32]bool{}
	for k := range int32(dtestUsers) {
		owners, err := after.ReplicasFor(ring.Murmur3Token(intKey(k)), repl)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(owners, func(o ring.Node) bool { return o.ID == n.ID }) {
			streamed[k] = true
		}
	}
	if len(streamed) == 0 {
		t.Fatalf("%s owns no user", n.ID)
	}
	g.connectSeeded = streamed
	if err := g.loc.AddNode(n); err != nil {
		t.Fatal(err)
	}
	g.connectSeeded = nil
	return len(streamed)
}

// readThroughout starts a client that reads every user at ONE and then
// QUORUM, again and again, until the returned stop is called (it waits for
// the client's last read); an error or a missing row fails t, naming when.
func readThroughout(t *testing.T, c *coordinator.Coordinator, when string) (stop func()) {
	var done atomic.Bool
	reading := make(chan struct{})
	go func() {
		defer close(reading)
		for !done.Load() {
			for _, l := range []consistency.Level{consistency.One, consistency.Quorum} {
				if _, err := readEvery(c, l); err != nil {
					t.Errorf("%s: %v", when, err)
					return
				}
			}
		}
	}()
	return func() { done.Store(true); <-reading }
}
