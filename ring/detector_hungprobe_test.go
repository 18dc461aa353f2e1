package ring_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/ring"
)

// A convicted replica whose every Probe hangs, ignoring its context,
// holds four probes' goroutines however long they hang: each probe is
// abandoned at ProbeTimeout, and past four the connection is not probed
// until one returns. A new probe started on schedule while the abandoned
// ones still waited, one more goroutine a minute, forever (found by a
// review of bounded resources).
func TestHungProbesHoldFourGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{})
		release := make(chan struct{})
		var running atomic.Int64
		hangs := func(context.Context) error { running.Add(1); <-release; running.Add(-1); return nil }
		script := make([]func(context.Context) error, 1000)
		for i := range script {
			script[i] = hangs
		}
		convictedScripted(d, script...)
		synctest.Wait()
		base := runtime.NumGoroutine()
		time.Sleep(time.Hour)
		synctest.Wait()
		t.Logf("after an hour: %d probes still running, %d more goroutines", running.Load(), runtime.NumGoroutine()-base)
		if n := running.Load(); n != 4 {
			t.Errorf("%d abandoned probes of one node running at once, want the bound, 4", n)
		}
		_ = d.Close()
		close(release)
		synctest.Wait()
	})
}

// An abandoned probe that returns frees its place: past four hung probes a
// connection is not probed, and once they return it is probed again on
// the backoff's schedule, and readmitted by a probe that answers. A hung
// probe kept counted after it returned left its node convicted for good.
func TestAConnectionIsProbedAgainOnceItsHungProbesReturn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		release := make(chan struct{})
		hangs := func(context.Context) error { <-release; return nil }
		a, _ := convictedScripted(d, hangs, hangs, hangs, hangs) // then probes answer
		time.Sleep(time.Hour)                                    // the probes at +1, +3, +7 and +15 s hang; no later one is made
		synctest.Wait()
		if d.IsAlive(a.Endpoint()) {
			t.Fatal("readmitted while its probes hang")
		}
		close(release)
		released := time.Now()
		time.Sleep(time.Minute) // the backoff's longest wait
		synctest.Wait()
		got := rec.list()
		if len(got) != 2 || !got[1].Alive || got[1].Cause != ring.ProbeSucceeded || !got[1].At.After(released) {
			t.Fatalf("changes %v, want a readmitted by a probe in the minute after its hung probes returned at %v", got, released)
		}
	})
}
