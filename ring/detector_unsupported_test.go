package ring_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// decorated is a decorator of replicas that forwards Probe, and has none
// to forward to: its replica is no Prober.
type decorated struct{ replica.Replica }

func (d decorated) Probe(ctx context.Context) error {
	if p, ok := d.Replica.(replica.Prober); ok {
		return p.Probe(ctx)
	}
	return fmt.Errorf("decorated: %w", errors.ErrUnsupported)
}

// A probe answered with errors.ErrUnsupported is taken as no Prober: the
// replica is readmitted ReadmitAfter after its conviction, as one without
// Probe is, instead of being probed, and failing, for as long as the
// detector runs.
func TestUnsupportedProbeReadmitsAfterADelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{ReadmitAfter: 3 * time.Second})
		defer d.Close()
		a := node("a", "dc1")
		_ = a.SetFault(replicatest.Down())
		start := time.Now()
		read(d, decorated{hidden{a}}, time.Second)
		time.Sleep(3 * time.Second) // the first probe at 1 s, unsupported; ReadmitAfter at 3 s
		synctest.Wait()
		if !d.IsAlive(a.Endpoint()) {
			t.Fatal("not readmitted ReadmitAfter after its conviction")
		}
		wantChanges(t, rec,
			change("a", false, ring.ConnectionFailed, start),
			change("a", true, ring.ReadmitTimeout, start.Add(3*time.Second)))
	})
}
