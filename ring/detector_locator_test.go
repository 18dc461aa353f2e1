package ring_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// dialer is a LocatorConfig.Connect whose connections the test can reach,
// the latest one per node.
type dialer struct {
	mu   sync.Mutex
	last map[string]*replicatest.Replica
}

func (d *dialer) connect(n ring.Node) (replica.Replica, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := replicatest.NewReplica(n.Endpoint())
	d.last[n.ID] = r
	return r, nil
}

func (d *dialer) conn(id string) *replicatest.Replica {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.last[id]
}

// The operator trial: with Replicas set to Locator.Replica, a node
// convicted on a refused connection and then replaced under its ID, or
// removed and added again, is readmitted through its new connection
// within CheckInterval, without Forget. Before, the detector probed the
// dead connection for good and LOCAL_QUORUM reads failed as Unavailable.
func TestDetectorFollowsTheLocatorsNewConnections(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		nodes := randomNodes(7, 3, 4, 1, 3)
		dial := &dialer{last: map[string]*replicatest.Replica{}}
		loc, err := ring.NewLocator(ring.LocatorConfig{
			Nodes:   nodes,
			Tables:  map[string]consistency.Replication{"t": consistency.NetworkTopology(map[string]int{"dc1": 3})},
			Connect: dial.connect,
		})
		if err != nil {
			t.Fatal(err)
		}
		d, rec := newDetector(t, ring.DetectorConfig{Replicas: loc.Replica})
		defer d.Close()
		for _, n := range nodes[1:] {
			_ = dial.conn(n.ID).SetFault(replicatest.Down())
			read(d, dial.conn(n.ID), time.Second)
		}
		start := time.Now()
		time.Sleep(20500 * time.Millisecond) // probes back off: the next at +31 s
		if err := loc.ReplaceNode("n01", ring.Node{ID: "n01", Datacenter: nodes[1].Datacenter, Rack: nodes[1].Rack}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		if err := loc.RemoveNode("n02"); err != nil {
			t.Fatal(err)
		}
		if err := loc.AddNode(nodes[2]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		wantChanges(t, rec,
			change("n01", false, ring.ConnectionFailed, start),
			change("n02", false, ring.ConnectionFailed, start),
			change("n01", true, ring.ProbeSucceeded, start.Add(21*time.Second)),
			change("n02", true, ring.ProbeSucceeded, start.Add(22*time.Second)))
	})
}
