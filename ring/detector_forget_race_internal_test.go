package ring

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// probeCounter counts the probes of a replica.
type probeCounter struct {
	*replicatest.Replica
	n atomic.Int32
}

func (p *probeCounter) Probe(ctx context.Context) error {
	p.n.Add(1)
	return p.Replica.Probe(ctx)
}

// ReportOutcome looks its node up (track), then convicts it under the
// node's lock (convict): a Forget landing between the two leaves the report
// holding the forgotten node. Its conviction must come to nothing, as
// Forget's doc says: no Change for the node after Forget returns, and no
// more probes. Taken, it told OnChange of a node no longer tracked, and
// probed it for as long as the detector ran. The race is too narrow to hit
// from outside, so its interleaving is replayed here in order.
func TestAConvictionLandingAfterForgetComesToNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var changes atomic.Int32
		d, err := NewDetector(DetectorConfig{OnChange: func(Change) { changes.Add(1) }})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		ep := replica.Endpoint{ID: "a", Datacenter: "dc1"}
		a := &probeCounter{Replica: replicatest.NewReplica(ep)}
		_ = a.SetFault(replicatest.Down())
		node := d.track("a") // the report's lookup
		d.Forget("a")
		d.convict(node, a.Endpoint(), a) // the report's conviction
		time.Sleep(time.Minute)          // probes at +1 s, +3 s, +7 s... if it was taken
		synctest.Wait()
		if !d.IsAlive(a.Endpoint()) || changes.Load() != 0 || a.n.Load() != 0 {
			t.Errorf("forgotten node: alive %v, %d changes, %d probes; want alive, none and none",
				d.IsAlive(a.Endpoint()), changes.Load(), a.n.Load())
		}
	})
}
