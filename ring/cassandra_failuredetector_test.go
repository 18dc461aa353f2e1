package ring_test

import (
	"math"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// Port of apache/cassandra test/unit/org/apache/cassandra/gms/
// FailureDetectorTest.java, testConvictAfterLeft: a node reported once,
// then removed from the ring (its status jumps to LEFT), keeps its
// heartbeat history, and interpret still convicts it. Cassandra sets
// phi_convict_threshold to 0 "to convict if there is any heartbeat data";
// readpath's 0 is the default, 8, so the least positive threshold stands
// for it. Removing a node from the Locator leaves the detector alone (only
// Forget drops a node, as the gossiper's FailureDetector.remove).
func TestCassandraConvictAfterLeft(t *testing.T) {
	for _, tc := range []struct {
		name      string
		threshold float64
		convict   time.Duration // after the heartbeat: the first check past phi's bound
	}{
		{"any heartbeat data", math.SmallestNonzeroFloat64, time.Second},
		// 8·ln 10 of the 2 s initial interval: 36.84 s.
		{"default threshold", 0, 37 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				nodes := randomNodes(5, 3, 4, 1, 3)
				dial := &dialer{last: map[string]*replicatest.Replica{}}
				loc, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes,
					Tables: map[string]consistency.Replication{"t": consistency.Simple(2)}, Connect: dial.connect})
				if err != nil {
					t.Fatal(err)
				}
				d, rec := newDetector(t, ring.DetectorConfig{PhiConvictThreshold: tc.threshold, Replicas: loc.Replica})
				defer d.Close()
				start := time.Now()
				d.Heartbeat("n01", start)
				if err := loc.RemoveNode("n01"); err != nil {
					t.Fatal(err)
				}
				if _, ok := loc.Replica("n01"); ok {
					t.Fatal("n01 still in the ring")
				}
				time.Sleep(tc.convict - time.Nanosecond)
				synctest.Wait()
				if !d.IsAlive(replica.Endpoint{ID: "n01"}) {
					t.Fatalf("convicted before %v", tc.convict)
				}
				time.Sleep(time.Nanosecond)
				wantChanges(t, rec, change("n01", false, ring.HeartbeatsStopped, start.Add(tc.convict)))
				if down := d.Down(); !slices.Equal(down, []string{"n01"}) {
					t.Errorf("down %v, want the left node n01", down)
				}
				d.Forget("n01") // the gossiper's FailureDetector.remove
				if !d.IsAlive(replica.Endpoint{ID: "n01"}) || len(d.Down()) != 0 {
					t.Errorf("forgotten n01 still down: %v", d.Down())
				}
			})
		})
	}
}
