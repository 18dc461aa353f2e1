package ring_test

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// Ports of apache/cassandra test/unit/org/apache/cassandra/gms/
// ArrivalWindowTest.java and ArrayBackedBoundedStatsTest.java, with
// Cassandra's defaults: a 2 s initial interval, and a 2 s maximum.

// cassandraWindow is ArrivalWindowTest's window: size 4, heartbeats at
// 111, 222, 333, 444 and 555 ms. The first records the 2 s initial
// interval, which the fifth pushes out: the mean is 111 ms.
func cassandraWindow(t *testing.T) *ring.ArrivalWindow {
	t.Helper()
	w, err := ring.NewArrivalWindow(4, 2*time.Second, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Duration{111, 222, 333, 444, 555} {
		w.Add(t0.Add(at * time.Millisecond))
	}
	return w
}

// ArrivalWindowTest.testWithNanoTime: phi is 0.4342 at 666 ms and 9.566
// at 3000 ms, within 0.01. Cassandra's ArrivalWindow.phi has since
// returned silence over mean alone (the same test then asserts 1.0 and
// 22.03) and FailureDetector.interpret multiplies by PHI_FACTOR (1/ln 10)
// before comparing with phi_convict_threshold, as getPhiValues does before
// reporting it; readpath's Phi is that scaled figure, the one compared.
func TestCassandraArrivalWindowWithNanoTime(t *testing.T) {
	w := cassandraWindow(t)
	if got := w.Mean(); got != 111*time.Millisecond {
		t.Fatalf("mean %v, want 111ms: the initial interval should have left the window", got)
	}
	for _, tc := range []struct {
		at         time.Duration
		phi, ratio float64 // the two versions of the test
	}{{666 * time.Millisecond, 0.4342, 1.0}, {3000 * time.Millisecond, 9.566, 22.03}} {
		phi := w.Phi(t0.Add(tc.at))
		if math.Abs(phi-tc.phi) > 0.01 || math.Abs(phi*math.Ln10-tc.ratio) > 0.01 {
			t.Errorf("phi at %v: %.4f (%.3f mean intervals), want %.4f (%.3f)", tc.at, phi, phi*math.Ln10, tc.phi, tc.ratio)
		}
	}
}

// The same heartbeats through a Detector: alive at 666 ms, where phi is
// 0.43, and convicted at the first check past 555 ms + 8·ln 10·111 ms
// (2599.7 ms), so by 3000 ms, where phi is 9.566 > 8, as Cassandra's
// FailureDetector.interpret convicts.
func TestCassandraArrivalWindowConvicts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		d, rec := newDetector(t, ring.DetectorConfig{WindowSize: 4, CheckInterval: 100 * time.Millisecond})
		defer d.Close()
		a := replica.Endpoint{ID: "a"}
		for _, at := range []time.Duration{111, 222, 333, 444, 555} {
			time.Sleep(time.Until(start.Add(at * time.Millisecond)))
			d.Heartbeat("a", time.Now())
		}
		time.Sleep(time.Until(start.Add(666 * time.Millisecond)))
		synctest.Wait()
		if phi := d.Phi("a", time.Now()); !d.IsAlive(a) || math.Abs(phi-0.4342) > 0.01 {
			t.Fatalf("at 666 ms: alive %v, phi %.4f; want alive, 0.4342", d.IsAlive(a), phi)
		}
		time.Sleep(time.Until(start.Add(3000 * time.Millisecond)))
		synctest.Wait()
		if phi := d.Phi("a", time.Now()); d.IsAlive(a) || math.Abs(phi-9.566) > 0.01 {
			t.Fatalf("at 3000 ms: alive %v, phi %.4f; want convicted, 9.566", d.IsAlive(a), phi)
		}
		wantChanges(t, rec, change("a", false, ring.HeartbeatsStopped, start.Add(2600*time.Millisecond)))
	})
}

// ArrayBackedBoundedStatsTest.test: an empty window's mean is 0; a window
// of 4 given 1, 2, 3, 4, 5 holds 2, 3, 4, 5, mean 3.5. The window records
// intervals between heartbeats, the first heartbeat's being the initial
// one: 1 ms here, then gaps of 2 to 5 ms.
func TestCassandraBoundedStatsMean(t *testing.T) {
	w, err := ring.NewArrivalWindow(4, time.Millisecond, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if w.Mean() != 0 {
		t.Fatalf("empty window: mean %v, want 0", w.Mean())
	}
	at := t0
	w.Add(at)
	for _, gap := range []time.Duration{2, 3, 4, 5} {
		at = at.Add(gap * time.Millisecond)
		w.Add(at)
	}
	if got := w.Mean(); got != 3500*time.Microsecond {
		t.Errorf("mean %v, want 3.5ms", got)
	}
}

// ArrayBackedBoundedStatsTest.testMultipleRounds: a window of 5 given 0 to
// 1000 holds 996 to 1000, mean 998, after wrapping 200 times. The initial
// interval stands for Cassandra's 0 (readpath's must be positive); it
// leaves the window anyway.
func TestCassandraBoundedStatsMultipleRounds(t *testing.T) {
	w, err := ring.NewArrivalWindow(5, time.Millisecond, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	at := t0
	w.Add(at)
	for gap := time.Duration(1); gap <= 1000; gap++ {
		at = at.Add(gap * time.Millisecond)
		w.Add(at)
	}
	if got := w.Mean(); got != 998*time.Millisecond {
		t.Errorf("mean %v, want 998ms", got)
	}
}
