package ring_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// Through the detector's own checks, a node's phi and its conviction
// follow a plain model of Cassandra's ArrivalWindow and
// FailureDetector.interpret (apache/cassandra
// src/java/org/apache/cassandra/gms/FailureDetector.java): the first
// heartbeat records the initial 2 s, later intervals up to MaxInterval (2 s)
// are recorded and longer ones are not, the window keeps its last
// WindowSize intervals, phi is the silence over the mean interval and
// ln 10, and a check convicts when phi exceeds the threshold, strictly;
// the next heartbeat readmits. Random heartbeat schedules (quarter-second
// steps, one gap in ten of 5 to 65 s), windows of 1 to 6 intervals and
// thresholds of 0.5 to 8.5, over 200 s of checks each, 60 seeds.
func TestDetectorPhiAndConvictionsFollowTheModel(t *testing.T) {
	for seed := range uint64(60) {
		synctest.Test(t, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 3))
			window, threshold := 1+rng.IntN(6), 0.5+8*rng.Float64()
			d, err := ring.NewDetector(ring.DetectorConfig{WindowSize: window, PhiConvictThreshold: threshold})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			start := time.Now()
			var beats []time.Time
			for at := start.Add(250 * time.Millisecond); at.Before(start.Add(200 * time.Second)); {
				beats = append(beats, at)
				q := 1 + rng.IntN(12)
				if rng.IntN(10) == 0 {
					q = 4 * (5 + rng.IntN(60))
				}
				at = at.Add(time.Duration(q) * 250 * time.Millisecond)
			}
			var intervals []time.Duration // the model's window
			var last time.Time
			next := 0
			for sec := 1; sec < 200; sec++ {
				check := start.Add(time.Duration(sec) * time.Second)
				for ; next < len(beats) && beats[next].Before(check); next++ {
					at := beats[next]
					time.Sleep(time.Until(at))
					d.Heartbeat("a", at)
					switch {
					case last.IsZero():
						intervals = append(intervals, 2*time.Second)
					case at.Sub(last) <= 2*time.Second:
						intervals = append(intervals, at.Sub(last))
					}
					if len(intervals) > window {
						intervals = intervals[1:]
					}
					last = at
				}
				time.Sleep(time.Until(check.Add(time.Millisecond))) // the check at sec has run
				synctest.Wait()
				if last.IsZero() {
					continue
				}
				var sum time.Duration
				for _, iv := range intervals {
					sum += iv
				}
				phi := float64(check.Sub(last)) / (float64(sum) / float64(len(intervals))) / math.Ln10
				if got := d.Phi("a", check); math.Abs(got-phi) > 1e-9 {
					t.Fatalf("seed %d, check at %d s: phi %v, want %v", seed, sec, got, phi)
				}
				// Phi only grows in a silence: the node is down after this
				// check exactly when its phi here exceeds the threshold.
				if alive := d.IsAlive(replica.Endpoint{ID: "a"}); alive != (phi <= threshold) {
					t.Fatalf("seed %d, check at %d s: alive %v with phi %v, threshold %v", seed, sec, alive, phi, threshold)
				}
			}
		})
	}
}
