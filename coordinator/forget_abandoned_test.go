package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// hangingConn is a node's connection whose reads hang, heeding no context,
// until it is closed, then fail as a closed connection's do; closed, it
// refuses probes too.
type hangingConn struct {
	*closingConn
}

func (c *hangingConn) Read(_ context.Context, _ replica.Command) (replica.Response, error) {
	<-c.closed
	return replica.Response{}, replica.ErrConnectionFailed
}

// A node that hangs, decommissioned, leaves nothing behind when the
// README's procedure is followed (RemoveNode; once the reads in flight to
// it are done, Detector.Forget and ForgetReplica; then closing its
// connection): a request its read gave up on returns only as the
// connection closes, failing, and its outcome must not bring the forgotten
// node back into the detector, convicted and probed for as long as it
// runs.
func TestAnAbandonedRequestEndingAfterForgetLeavesNothingBehind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		conns := map[string]*closingConn{}
		var hung *hangingConn
		nodes := departingRing()
		loc, err := ring.NewLocator(ring.LocatorConfig{
			Nodes:  nodes[:3],
			Tables: map[string]consistency.Replication{tbl: consistency.Simple(3)},
			Connect: func(n ring.Node) (replica.Replica, error) {
				conns[n.ID] = &closingConn{ep: n.Endpoint(), ts: 1, closed: make(chan struct{})}
				if n.ID == "n0" {
					hung = &hangingConn{closingConn: conns[n.ID]}
					return hung, nil
				}
				return conns[n.ID], nil
			},
		})
		require.NoError(t, err)
		det, err := ring.NewDetector(ring.DetectorConfig{Replicas: loc.Replica})
		require.NoError(t, err)
		defer det.Close()
		c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: det})
		require.NoError(t, err)
		defer c.Close()

		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: "k", Level: consistency.All})
		require.Error(t, err) // n0 hangs: the read times out, and its request to n0 is abandoned
		require.Equal(t, int64(1), replicaRow(t, c, "n0").Abandoned)

		decommissionN0(t, loc, det, c, nodes[3], hung.closingConn)
	})
}

// replicaRow returns the coordinator's row of replica id.
func replicaRow(t *testing.T, c *coordinator.Coordinator, id string) coordinator.ReplicaMetrics {
	t.Helper()
	for _, r := range c.Metrics().Replicas {
		if r.Endpoint.ID == id {
			return r
		}
	}
	t.Fatalf("no row for %s", id)
	return coordinator.ReplicaMetrics{}
}
