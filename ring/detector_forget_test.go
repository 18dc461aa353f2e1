package ring_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// countingProber records when each of a replica's probes started and
// ended.
type countingProber struct {
	*replicatest.Replica
	mu           sync.Mutex
	starts, ends []time.Time
}

func (p *countingProber) Probe(ctx context.Context) error {
	p.mu.Lock()
	p.starts = append(p.starts, time.Now())
	p.mu.Unlock()
	err := p.Replica.Probe(ctx)
	p.mu.Lock()
	p.ends = append(p.ends, time.Now())
	p.mu.Unlock()
	return err
}

func (p *countingProber) probes() (starts, ends []time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Time(nil), p.starts...), append([]time.Time(nil), p.ends...)
}

// A forgotten node is no longer probed, is not down, and is not
// readmitted when it comes back: the node left the ring.
func TestForgetStopsProbing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		a := &countingProber{Replica: node("a", "dc1")}
		_ = a.SetFault(replicatest.Down())
		convicted := time.Now()
		read(d, a, time.Second)
		time.Sleep(3500 * time.Millisecond) // probes at +1 s and +3 s fail
		d.Forget("a")
		if !d.IsAlive(a.Endpoint()) || len(d.Down()) != 0 {
			t.Fatalf("forgotten node still down: %v", d.Down())
		}
		time.Sleep(time.Minute) // unforgotten: probes at +7 s, +15 s, +31 s...
		_ = a.SetFault(replicatest.Fault{})
		time.Sleep(time.Minute)
		if starts, _ := a.probes(); len(starts) != 2 {
			t.Fatalf("%d probes, want the 2 before Forget", len(starts))
		}
		wantChanges(t, rec, change("a", false, ring.ConnectionFailed, convicted))
	})
}

// Forget cancels a probe in flight, and the detector does not wait for
// ProbeTimeout to stop probing.
func TestForgetCancelsAProbeInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{ProbeTimeout: time.Minute})
		defer d.Close()
		a := &countingProber{Replica: node("a", "dc1")}
		_ = a.SetFault(replicatest.Down())
		convicted := time.Now()
		read(d, a, time.Second)
		_ = a.SetFault(replicatest.Unreachable()) // the probe at +1 s hangs
		time.Sleep(1500 * time.Millisecond)
		forgotten := time.Now()
		d.Forget("a")
		synctest.Wait()
		starts, ends := a.probes()
		if len(starts) != 1 || len(ends) != 1 || !ends[0].Equal(forgotten) {
			t.Fatalf("probes started %v, ended %v; want one, ended at Forget (%v)", starts, ends, forgotten)
		}
		wantChanges(t, rec, change("a", false, ring.ConnectionFailed, convicted))
	})
}

// A forgotten node's heartbeats are dropped: its silence since does not
// convict it, its phi is 0, and a heartbeat after Forget starts afresh.
func TestForgetDropsHeartbeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		for range 10 {
			d.Heartbeat("b", time.Now())
			time.Sleep(time.Second)
		}
		d.Forget("b")
		if phi := d.Phi("b", time.Now()); phi != 0 {
			t.Fatalf("phi %v after Forget, want 0", phi)
		}
		time.Sleep(5 * time.Minute) // unforgotten: convicted after about 18 s
		synctest.Wait()
		if !d.IsAlive(replica.Endpoint{ID: "b"}) || len(d.Down()) != 0 {
			t.Fatalf("forgotten node convicted: down %v", d.Down())
		}
		d.Heartbeat("b", time.Now())
		model, _ := ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
		model.Add(time.Now())
		at := time.Now().Add(3 * time.Second)
		if got, want := d.Phi("b", at), model.Phi(at); got != want {
			t.Fatalf("phi after a fresh heartbeat %v, want %v (one heartbeat's history)", got, want)
		}
		wantChanges(t, rec)
	})
}

// Forget drops a node's count of connection failures; a node forgotten
// while convicted is convicted again by its next failure, as a node never
// heard of. Forgetting an unknown node does nothing.
func TestForgottenNodeIsTrackedAfresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{ConnectionFailures: 2})
		defer d.Close()
		a := node("a", "dc1")
		_ = a.SetFault(replicatest.Down())
		read(d, a, time.Second)
		d.Forget("a")
		read(d, a, time.Second)
		if !d.IsAlive(a.Endpoint()) {
			t.Fatal("convicted by one failure after Forget: the count was kept")
		}
		convicted := time.Now()
		read(d, a, time.Second)
		if d.IsAlive(a.Endpoint()) {
			t.Fatal("not convicted by two failures")
		}
		d.Forget("a")
		d.Forget("never-seen")
		read(d, a, time.Second)
		again := time.Now()
		read(d, a, time.Second)
		if d.IsAlive(a.Endpoint()) {
			t.Fatal("a forgotten node was not convicted again")
		}
		wantChanges(t, rec,
			change("a", false, ring.ConnectionFailed, convicted),
			change("a", false, ring.ConnectionFailed, again))
	})
}

// No Change is delivered for a node after Forget returns (Forget's doc):
// here Forget runs while the detector looks up the node's connection, past
// its ReadmitAfter, and the lookup hands back a connection without a
// Prober, which would readmit the node at once. The readmission of a node
// forgotten meanwhile is dropped, not told as "up (readmit timeout)".
func TestAReadmissionRacingForgetDeliversNoChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var d *ring.Detector
		var mu sync.Mutex
		forget := false
		a := prober("a", replicatest.Down())
		replicas := func(id string) (replica.Replica, bool) {
			mu.Lock()
			defer mu.Unlock()
			if !forget {
				return a, true
			}
			forget = false
			d.Forget(id) // Forget racing the lookup, made deterministic
			return hidden{a}, true
		}
		d, rec := newDetector(t, ring.DetectorConfig{Replicas: replicas})
		defer d.Close()
		convicted := time.Now()
		read(d, a, time.Second) // probes at +1 s and +3 s fail; ReadmitAfter ends at +5 s
		time.Sleep(6500 * time.Millisecond)
		mu.Lock()
		forget = true // at the lookup of the probe at +7 s
		mu.Unlock()
		time.Sleep(time.Minute)
		if !d.IsAlive(a.Endpoint()) || len(d.Down()) != 0 || len(d.Nodes(time.Now())) != 0 {
			t.Fatalf("forgotten node still tracked: down %v, nodes %v", d.Down(), d.Nodes(time.Now()))
		}
		wantChanges(t, rec, change("a", false, ring.ConnectionFailed, convicted))
	})
}
