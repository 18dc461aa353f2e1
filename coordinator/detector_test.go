package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// withDetector returns a coordinator over cl whose liveness is a
// ring.Detector fed by the coordinator's outcomes.
func withDetector(t *testing.T, cl *replicatest.Cluster, cfg coordinator.Config) (*coordinator.Coordinator, *ring.Detector) {
	t.Helper()
	d, err := ring.NewDetector(ring.DetectorConfig{Seed: 1})
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	cfg.Locator, cfg.Liveness = cl, d
	c, err := coordinator.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c, d
}

func readAt(c *coordinator.Coordinator, table string, l consistency.Level) (coordinator.Result, error) {
	return c.Read(context.Background(), coordinator.Request{Table: table, Key: key, Level: l})
}

func endpoint(cl *replicatest.Cluster, id string) replica.Endpoint { return cl.Replica(id).Endpoint() }

// A replica whose connections are refused is convicted by the first read
// that meets the refusal; no read is sent to it afterwards; once it comes
// back the detector's probe readmits it, and reads reach it again.
func TestAReplicaRefusingConnectionsIsConvictedAndReadmitted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := newEnv(t, coordinator.Config{}).cluster
		c, d := withDetector(t, cl, coordinator.Config{DefaultTable: policy(t, "5ms")})
		require.NoError(t, cl.Replica(A).SetFault(replicatest.Down()))

		_, err := readAt(c, tbl, consistency.All)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure, "the read that met the refusal")
		assert.False(t, d.IsAlive(endpoint(cl, A)), "convicted by that one read")
		before := cl.Replica(A).Stats().Reads
		for range 20 {
			_, err := readAt(c, tbl, consistency.Quorum)
			require.NoError(t, err)
		}
		var unavailable *consistency.UnavailableError
		_, err = readAt(c, tbl, consistency.All)
		require.ErrorAs(t, err, &unavailable, "ALL knows at once that A is down")
		settle()
		assert.Equal(t, before, cl.Replica(A).Stats().Reads, "no read was sent to the convicted replica")

		require.NoError(t, cl.Replica(A).SetFault(replicatest.Fault{}))
		time.Sleep(2 * time.Second) // the probes back off from 1 s
		assert.True(t, d.IsAlive(endpoint(cl, A)), "probed and readmitted")
		_, err = readAt(c, tbl, consistency.All)
		require.NoError(t, err)
		settle()
		assert.Greater(t, cl.Replica(A).Stats().Reads, before, "reads reach it again")
	})
}

// A replica that only times out is never convicted: a slow cluster must
// not become an unavailable one. The snitch routes around it instead.
func TestAReplicaThatOnlyTimesOutIsNeverConvicted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := newEnv(t, coordinator.Config{}).cluster
		c, d := withDetector(t, cl, coordinator.Config{DefaultTable: policy(t, "5ms"), ReadTimeout: ms(50)})
		require.NoError(t, cl.Replica(A).SetFault(replicatest.Unreachable()))
		asked := 0
		for range 40 {
			res, err := readAt(c, tbl, consistency.Quorum)
			require.NoError(t, err)
			if contacted(res, A) {
				asked++
			}
			settle()
		}
		_, err := readAt(c, tbl, consistency.All)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.True(t, d.IsAlive(endpoint(cl, A)))
		assert.LessOrEqual(t, asked, 2, "reads that still asked it first")
	})
}

// A partition cuts dc2 off: its heartbeats stop and its connections are
// refused. The detector convicts dc2's three nodes, and only them, at the
// first check after phi passes 8 (about 18 mean intervals of silence);
// LOCAL_QUORUM reads in dc1 never notice.
func TestAPartitionConvictsADatacenterAndLocalQuorumGoesOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := newTwoDCs(t, coordinator.Config{}).cluster
		c, d := withDetector(t, cl, coordinator.Config{LocalDatacenter: "dc1", DefaultTable: policy(t, "5ms")})
		start := time.Now()
		// The phi model's bound, from a window fed dc2's heartbeats: one
		// each second from 0 s to 9 s, with the detector's defaults.
		w, err := ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
		require.NoError(t, err)
		for i := range 10 {
			w.Add(start.Add(time.Duration(i) * time.Second))
		}
		silence := 9*time.Second + w.SilenceBound(8)
		convictAt := silence.Truncate(time.Second) + time.Second // the detector checks each second

		cut := make(chan struct{})
		beats := make(chan struct{})
		go func() { // gossip: every node's heartbeat each second, dc2's until the cut
			defer close(beats)
			for i := 0; time.Since(start) < convictAt+5*time.Second; i++ {
				for _, id := range twoDCs {
					select {
					case <-cut:
						if cl.Replica(id).Endpoint().Datacenter == "dc2" {
							continue
						}
					default:
					}
					d.Heartbeat(id, time.Now())
				}
				time.Sleep(time.Second)
			}
		}()
		time.Sleep(9500 * time.Millisecond)
		close(cut)
		for _, id := range []string{d2n1, d2n2, d2n3} {
			require.NoError(t, cl.Replica(id).SetFault(replicatest.Down()))
		}
		readLocallyUntil := func(at time.Duration) { // LOCAL_QUORUM reads every 100 ms, until at exactly
			for time.Since(start) < at {
				_, err := readAt(c, tbl, consistency.LocalQuorum)
				require.NoError(t, err)
				time.Sleep(min(100*time.Millisecond, at-time.Since(start)))
			}
		}
		readLocallyUntil(convictAt - 50*time.Millisecond)
		assert.Empty(t, d.Down(), "before the bound (%v)", convictAt)
		readLocallyUntil(convictAt + 50*time.Millisecond)
		assert.Equal(t, []string{d2n1, d2n2, d2n3}, d.Down(), "at the first check past the bound (%v)", convictAt)
		readLocallyUntil(convictAt + 5*time.Second)
		<-beats
	})
}
