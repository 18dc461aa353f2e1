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
