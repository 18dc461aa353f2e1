package ring_test

import (
	"context"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// hangConn is a connection of a type == panics on (it holds a slice). Its
// Probe hangs, ignoring its context, until hang is closed when hang is
// not nil (a probe stuck on a dead TCP connection), else asks the replica.
type hangConn struct {
	*replicatest.Replica
	hang    chan struct{}
	running *atomic.Int64
	tags    []string
}

func (c hangConn) Probe(ctx context.Context) error {
	if c.hang != nil {
		c.running.Add(1)
		defer c.running.Add(-1)
		<-c.hang
		return nil
	}
	return c.Replica.Probe(ctx)
}

// README (ring, failure detector): with Replicas, "a node replaced under
// its ID ... is probed through its new connection within CheckInterval
// (1 s), the backoff starting again, and readmitted when the probe
// answers", and four abandoned probes hold up only "a connection".
// Here a's old connection's probes all hang; a is then replaced under its
// ID by a healthy connection of the same (uncomparable) type. The
// detector took every connection of that type for the old one, so the
// four hung probes of the dead connection kept the new one from ever
// being probed: a stayed convicted for good although it had healed
// (found by review). Now no probe is charged to such a connection but its
// own, and the replacement is probed on the backoff's schedule.
func TestAReplacementOfAnUncomparableConnectionIsProbedDespiteTheOldOnesHungProbes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var running atomic.Int64
		hang := make(chan struct{})
		defer close(hang)
		dead := node("a", "dc1")
		_ = dead.SetFault(replicatest.Down())
		old := hangConn{Replica: dead, hang: hang, running: &running, tags: []string{"old"}}
		conn := &swapped{cur: old}
		d, _ := newDetector(t, ring.DetectorConfig{Replicas: conn.get})
		defer d.Close()
		_ = read(d, old, time.Second)
		time.Sleep(time.Minute) // probes at +1, +3, +7, +15, +31 s: four hang
		synctest.Wait()
		t.Logf("hung probes of the old connection: %d", running.Load())
		conn.set(hangConn{Replica: node("a", "dc1"), tags: []string{"new"}}) // replaced, healthy
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		if !d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Errorf("a, replaced by a healthy connection 10 minutes ago, is still convicted: its new connection was never probed")
		}
	})
}

// wrapperConn wraps a connection, forwarding Probe: an embedder's metrics
// decorator, made afresh by its Replicas at each call.
type wrapperConn struct{ *hangProber }

type hangProber struct {
	*replicatest.Replica
	running atomic.Int64
	started atomic.Int64
	release chan struct{}
}

func (p *hangProber) Probe(ctx context.Context) error {
	p.started.Add(1)
	p.running.Add(1)
	defer p.running.Add(-1)
	<-p.release
	return nil
}

// A Replicas that wraps the node's connection in a new decorator at each
// call makes every lookup (each CheckInterval) look like a replacement:
// the backoff restarts and the connection is probed again at once. Each
// of those probes that hung was kept, one goroutine a probe, 1,800 in an
// hour (found by review); a node's hung probes are now bounded, eight
// whatever its connections, and one more of a connection with none of its
// own (a fresh wrapper is one), which a healthy replacement needs.
func TestAFreshWrapperPerLookupHoldsAFewHungProbes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := &hangProber{Replica: node("a", "dc1"), release: make(chan struct{})}
		_ = p.SetFault(replicatest.Down())
		d, _ := newDetector(t, ring.DetectorConfig{Replicas: func(string) (replica.Replica, bool) {
			return &wrapperConn{p}, true
		}})
		_ = read(d, &wrapperConn{p}, time.Second)
		time.Sleep(time.Hour)
		synctest.Wait()
		t.Logf("after an hour: %d probes started, %d still running", p.started.Load(), p.running.Load())
		if n := p.running.Load(); n > 9 {
			t.Errorf("%d abandoned probes of one node running at once, want at most 9", n)
		}
		_ = d.Close()
		close(p.release)
		synctest.Wait()
	})
}

// With Replicas, a node replaced under its ID twice by connections whose
// probes hang (a dead host, then another), and then by a healthy one, is
// readmitted through the healthy one: the eight hung probes of its dead
// connections, a node's cap, refused every probe of the new one, so it
// stayed convicted until a hung probe returned, maybe never, where
// ReplaceNode's doc promises it heals at the next probe (found by review).
// One probe past the cap, of a connection with none of its own, runs.
func TestAHealthyReplacementIsProbedPastTheNodesHungProbes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		dead1 := &hangProber{Replica: node("a", "dc1"), release: release}
		_ = dead1.SetFault(replicatest.Down())
		dead2 := &hangProber{Replica: node("a", "dc1"), release: release}
		conn := &swapped{cur: dead1}
		d, _ := newDetector(t, ring.DetectorConfig{Replicas: conn.get})
		defer d.Close()
		_ = read(d, dead1, time.Second)
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		conn.set(dead2)
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if n := dead1.running.Load() + dead2.running.Load(); n != 8 {
			t.Fatalf("%d hung probes of the dead connections, want the node's 8", n)
		}
		conn.set(node("a", "dc1"))
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if !d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Errorf("a, replaced by a healthy connection 2 minutes ago, is still convicted: its new connection was never probed")
		}
	})
}

// Forget does not forget the probes still hanging: a node forgotten and
// convicted again by a late failure of the same hanging connection (as
// Forget's doc says a failure reported after it does) was charged none
// of them, and each cycle left four more goroutines behind, 20 after five
// (found by review). They count until they return.
func TestForgetKeepsCountingTheProbesStillHanging(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := &hangProber{Replica: node("a", "dc1"), release: make(chan struct{})}
		defer close(p.release)
		d, _ := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		for range 5 {
			d.ReportOutcome(replica.Outcome{Replica: p, Endpoint: p.Endpoint(), Err: syscall.ECONNREFUSED})
			time.Sleep(10 * time.Minute)
			synctest.Wait()
			d.Forget("a")
		}
		if n := p.running.Load(); n > 4 {
			t.Errorf("%d hung probes of one connection still running after five Forgets, want at most 4", n)
		}
	})
}

// swapped is a node's current connection, which a test replaces as
// ReplaceNode would: its get is a DetectorConfig.Replicas.
type swapped struct {
	mu  sync.Mutex
	cur replica.Replica
}

func (s *swapped) get(string) (replica.Replica, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur, true
}

func (s *swapped) set(r replica.Replica) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur = r
}
