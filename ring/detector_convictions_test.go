package ring_test

import (
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
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

// A check convicts a node only when its phi exceeds PhiConvictThreshold
// strictly, as Cassandra's FailureDetector.interpret does (phi >
// phi_convict_threshold): a node whose phi equals the threshold at a check
// stays up, and the next check, with phi above it, convicts it. The
// threshold is the phi of a 4 s silence after the first heartbeat (its
// interval the initial 2 s), computed as ArrivalWindow.Phi computes it.
func TestPhiEqualToTheThresholdDoesNotConvict(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		initial := 2 * time.Second
		threshold := float64(4*time.Second) / float64(initial) / math.Ln10
		d, err := ring.NewDetector(ring.DetectorConfig{WindowSize: 1, InitialInterval: initial, PhiConvictThreshold: threshold})
		require.NoError(t, err)
		defer d.Close()
		start := time.Now()
		d.Heartbeat("a", start)
		time.Sleep(4*time.Second + time.Millisecond) // the check at 4 s has run
		synctest.Wait()
		require.Equal(t, threshold, d.Phi("a", start.Add(4*time.Second)), "phi at the check")
		require.True(t, d.IsAlive(replica.Endpoint{ID: "a"}), "convicted with phi equal to the threshold")
		time.Sleep(time.Second) // the check at 5 s
		synctest.Wait()
		require.False(t, d.IsAlive(replica.Endpoint{ID: "a"}), "not convicted with phi above the threshold")
	})
}
