package ring_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// A stall of the detector's own process convicts no node whose heartbeats
// queued up meanwhile: here OnChange holds the detector's goroutine for
// 30 s while the embedder's heartbeats are held up as long, and read 1.5 s
// after. With the guard, phi convicts no one for MaxLocalPause after the
// stall, and convicts again after it; without, the node is convicted when
// the detector resumes.
func TestLocalPauseConvictsNoOne(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxPause time.Duration
		want     []string // a's changes
	}{
		{"guard", 0, nil},
		{"no guard", -1, []string{"down (heartbeats stopped) at 40s", "up (heartbeats resumed) at 41.5s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				rec := new(recorder)
				var once sync.Once
				d, err := ring.NewDetector(ring.DetectorConfig{
					MaxLocalPause: tc.maxPause,
					OnChange: func(c ring.Change) {
						if c.Endpoint.ID == "a" {
							rec.on(c)
						}
						once.Do(func() { time.Sleep(30 * time.Second) }) // the stall
					},
				})
				if err != nil {
					t.Fatal(err)
				}
				defer d.Close()
				beat := func(until time.Duration) {
					for time.Since(start) <= until {
						d.Heartbeat("a", time.Now())
						time.Sleep(time.Second)
					}
				}
				beat(9 * time.Second)
				x := node("x", "dc1")
				_ = x.SetFault(replicatest.Down())
				read(d, hidden{x}, time.Second) // its conviction calls OnChange at 10 s
				time.Sleep(31500 * time.Millisecond)
				beat(50 * time.Second)
				synctest.Wait()
				var got []string
				for _, c := range rec.list() {
					got = append(got, fmt.Sprintf("%s (%s) at %v", map[bool]string{false: "down", true: "up"}[c.Alive], c.Cause, c.At.Sub(start)))
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("a's changes %q, want %q", got, tc.want)
				}

				// After the pause, silence convicts as before.
				time.Sleep(25 * time.Second)
				synctest.Wait()
				if d.IsAlive(replica.Endpoint{ID: "a"}) {
					t.Errorf("alive after 25 s of silence, phi %.2f", d.Phi("a", time.Now()))
				}
			})
		})
	}
}

// MaxLocalPause's default follows a long CheckInterval, so that setting
// only the interval never makes every check look like a pause.
func TestMaxLocalPauseDefaultFollowsCheckInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, err := ring.NewDetector(ring.DetectorConfig{CheckInterval: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		for range 10 {
			d.Heartbeat("a", time.Now())
			time.Sleep(10 * time.Second)
		}
		time.Sleep(5 * time.Minute)
		synctest.Wait()
		if d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Error("checks every 10 s never convict")
		}
	})
}
