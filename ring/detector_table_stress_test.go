package ring_test

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// While other nodes fail, are forgotten and fail again (growing the
// detector's table, filling it with forgotten nodes' markers and copying
// it), readers without a lock always find the nodes convicted before they
// began and never forgotten, and never find a node that only heartbeats.
func TestDetectorReadersDuringChurn(t *testing.T) {
	d, err := ring.NewDetector(ring.DetectorConfig{ReadmitAfter: time.Hour, InitialInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var stable, healthy []string
	for i := range 40 {
		stable = append(stable, fmt.Sprint("s", i))
		healthy = append(healthy, fmt.Sprint("h", i))
		fail(d, stable[i])
		d.Heartbeat(healthy[i], time.Now()) // phi stays low for hours
	}
	var done atomic.Bool
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for n := 0; !done.Load() || n == 0; n++ {
				for i := range stable {
					if d.IsAlive(replica.Endpoint{ID: stable[i]}) {
						t.Errorf("%s, convicted and never forgotten, is alive", stable[i])
						return
					}
					if !d.IsAlive(replica.Endpoint{ID: healthy[i]}) {
						t.Errorf("%s, never failed, is down", healthy[i])
						return
					}
				}
				down := d.Down()
				for _, id := range stable {
					if !slices.Contains(down, id) {
						t.Errorf("%s missing from Down", id)
						return
					}
				}
			}
		})
	}
	for round := range 6 {
		for i := range 1500 {
			id := fmt.Sprint("c", i)
			fail(d, id)
			if (i+round)%3 != 0 {
				d.Forget(id)
			}
		}
	}
	done.Store(true)
	wg.Wait()
}
