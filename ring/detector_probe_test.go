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

// scriptedProber answers its n-th probe with script[n], and later ones
// with nil.
type scriptedProber struct {
	*replicatest.Replica
	mu     sync.Mutex
	script []func(context.Context) error
}

func (p *scriptedProber) Probe(ctx context.Context) error {
	p.mu.Lock()
	var f func(context.Context) error
	if len(p.script) > 0 {
		f, p.script = p.script[0], p.script[1:]
	}
	p.mu.Unlock()
	if f == nil {
		return nil
	}
	return f(ctx)
}

// convictedScripted returns a convicted replica "a" whose probes follow
// script, and the time it was convicted.
func convictedScripted(d *ring.Detector, script ...func(context.Context) error) (*scriptedProber, time.Time) {
	a := &scriptedProber{Replica: node("a", "dc1"), script: script}
	_ = a.SetFault(replicatest.Down())
	convicted := time.Now()
	read(d, a, time.Second)
	_ = a.SetFault(replicatest.Fault{})
	return a, convicted
}

// A probe that panics is a failed probe: the detector goes on probing
// (at +1 s, +3 s, +7 s here) and the process does not crash.
func TestAProbeThatPanicsFails(t *testing.T) {
	panics := func(context.Context) error { panic("probe bug") }
	wantTwoProbesFailed(t, panics, panics)
}

// wantTwoProbesFailed has a convicted replica's first two probes run
// first and second, and checks that both fail: the third, at +7 s,
// readmits it.
func wantTwoProbesFailed(t *testing.T, first, second func(context.Context) error) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		a, convicted := convictedScripted(d, first, second)
		time.Sleep(7*time.Second - time.Nanosecond)
		if d.IsAlive(a.Endpoint()) {
			t.Fatal("readmitted by a failed probe")
		}
		time.Sleep(time.Nanosecond)
		wantProbedBack(t, d, rec, convicted, 7*time.Second)
	})
}

// A probe that ignores its context is abandoned at ProbeTimeout: the next
// probe runs on schedule and readmits the replica, and Close returns while
// the hung probe still runs.
func TestAProbeThatHangsIsAbandoned(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		release := make(chan struct{})
		defer close(release) // lets the abandoned probe end with the bubble
		hangs := func(context.Context) error { <-release; return nil }
		_, convicted := convictedScripted(d, hangs)
		// The probe at +1 s hangs and is abandoned at +2 s; the next, 2 s
		// later, answers.
		time.Sleep(4 * time.Second)
		wantProbedBack(t, d, rec, convicted, 4*time.Second)
	})
}

// Close does not wait for a probe that ignores its context.
func TestCloseDoesNotWaitForAHungProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{ProbeTimeout: time.Hour})
		release := make(chan struct{})
		defer close(release)
		hangs := func(context.Context) error { <-release; return nil }
		convictedScripted(d, hangs)
		time.Sleep(2 * time.Second) // the probe at +1 s hangs
		start := time.Now()
		_ = d.Close()
		if waited := time.Since(start); waited != 0 {
			t.Fatalf("Close waited %v for a hung probe", waited)
		}
		if d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Fatal("a replica whose probe hung was readmitted")
		}
	})
}

// codeError is an error whose Is reads a field it never set.
type codeError struct{ code *int }

func (codeError) Error() string          { return "code error" }
func (e codeError) Is(target error) bool { return *e.code == 0 }

// A probe whose error's own methods panic is a failed probe too: the
// detector's errors.Is on it crashed the process.
func TestAProbeErrorWhoseMethodsPanicFails(t *testing.T) {
	bad := func(context.Context) error { return codeError{} }
	wantTwoProbesFailed(t, bad, bad)
}
