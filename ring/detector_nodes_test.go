package ring_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// Nodes lists every node tracked with whether it is up, which source
// convicted it, its phi, its connection failures (an exporter's gauges)
// and its convictions (a counter).
func TestNodesListsEveryTrackedNode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{ConnectionFailures: 2, ReadmitAfter: time.Hour})
		defer d.Close()
		for range 10 { // b's heartbeats stop after these, a's do not
			d.Heartbeat("a", time.Now())
			d.Heartbeat("b", time.Now())
			time.Sleep(time.Second)
		}
		c := node("c", "dc1")
		require.NoError(t, c.SetFault(replicatest.Down()))
		read(d, c, time.Second)
		read(d, c, time.Second)
		for range 30 {
			d.Heartbeat("a", time.Now())
			time.Sleep(time.Second)
		}
		synctest.Wait()

		now := time.Now()
		got := d.Nodes(now)
		require.Len(t, got, 3)
		assert.Equal(t, "a", got[0].Endpoint.ID)
		assert.True(t, got[0].Alive)
		assert.Equal(t, d.Phi("a", now), got[0].Phi)
		assert.Equal(t, ring.NodeState{Endpoint: got[1].Endpoint, HeartbeatsStopped: true, Phi: d.Phi("b", now), Convictions: 1}, got[1])
		assert.Greater(t, got[1].Phi, 8.0)
		assert.Equal(t, ring.NodeState{Endpoint: c.Endpoint(), ConnectionFailed: true, Failures: 2, Convictions: 1}, got[2])

		d.Forget("b")
		assert.Len(t, d.Nodes(now), 2, "a forgotten node is not tracked")
	})
}

// A node with connection failures too few to convict it is listed with
// the endpoint its failures came from, datacenter and rack included, as a
// convicted one is: an exporter's labels do not change at the conviction.
func TestNodesKnowsAFailingNodesEndpoint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{ConnectionFailures: 3})
		defer d.Close()
		c := node("c", "dc1")
		require.NoError(t, c.SetFault(replicatest.Down()))
		read(d, c, time.Second)
		got := d.Nodes(time.Now())
		require.Len(t, got, 1)
		assert.Equal(t, ring.NodeState{Endpoint: c.Endpoint(), Alive: true, Failures: 1}, got[0])
	})
}

// A node's Convictions counts its transitions from alive to down, one for
// each OnChange down, however many sources convict it at once; Forget
// starts it again from zero.
func TestNodesCountsConvictions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{ReadmitAfter: time.Hour})
		defer d.Close()
		convictions := func() int {
			synctest.Wait()
			for _, n := range d.Nodes(time.Now()) {
				if n.Endpoint.ID == "a" {
					return n.Convictions
				}
			}
			return -1
		}
		beat := func(n int) {
			for range n {
				d.Heartbeat("a", time.Now())
				time.Sleep(time.Second)
			}
		}
		beat(10)
		assert.Equal(t, 0, convictions())
		time.Sleep(30 * time.Second) // its heartbeats stop: convicted
		assert.Equal(t, 1, convictions())
		beat(1) // readmitted
		time.Sleep(30 * time.Second)
		assert.Equal(t, 2, convictions())
		a := node("a", "dc1")
		require.NoError(t, a.SetFault(replicatest.Down()))
		read(d, a, time.Second) // a second source, while down: no transition
		assert.Equal(t, 2, convictions())
		downs := 0
		for _, ch := range rec.list() {
			if !ch.Alive {
				downs++
			}
		}
		assert.Equal(t, 2, downs, "one OnChange down each")

		d.Forget("a")
		beat(10)
		time.Sleep(30 * time.Second)
		assert.Equal(t, 1, convictions(), "counted anew after Forget")
	})
}
