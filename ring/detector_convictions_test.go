package ring_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// A node convicted by connection failures and then by phi stays down when
// a probe answers, and its next heartbeat readmits it: one down, one up.
func TestBothConvictionsNeedBothReadmissions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		a := node("a", "dc1")
		for range 10 {
			d.Heartbeat("a", time.Now())
			time.Sleep(time.Second)
		}
		_ = a.SetFault(replicatest.Down())
		conv := time.Now()
		read(d, a, time.Second)
		time.Sleep(30 * time.Second) // phi convicts too (no event), probes fail
		_ = a.SetFault(replicatest.Fault{})
		time.Sleep(70 * time.Second) // a probe succeeds: still down by phi
		synctest.Wait()
		if d.IsAlive(a.Endpoint()) {
			t.Fatal("alive while phi-convicted")
		}
		up := time.Now()
		d.Heartbeat("a", up)
		wantChanges(t, rec, change("a", false, ring.ConnectionFailed, conv), change("a", true, ring.HeartbeatsResumed, up))
	})
}
