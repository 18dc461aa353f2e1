package coordinator_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// closingConn is a node's connection that holds one cell written at ts,
// and whose writes wait until it is closed, then fail as a closed
// connection's do; closed, it refuses probes too.
type closingConn struct {
	ep     replica.Endpoint
	ts     int64
	closed chan struct{}
	probes atomic.Int64
}

func (c *closingConn) Endpoint() replica.Endpoint { return c.ep }

func (c *closingConn) Read(_ context.Context, cmd replica.Command) (replica.Response, error) {
	return cmd.Respond(replica.NewPartition(cmd.Key, replica.NewRow("r", replica.Live("v", "x", c.ts))))
}

func (c *closingConn) Apply(ctx context.Context, _ replica.Mutation) error {
	select {
	case <-c.closed:
		return replica.ErrConnectionFailed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *closingConn) Probe(context.Context) error {
	c.probes.Add(1)
	select {
	case <-c.closed:
		return replica.ErrConnectionFailed
	default:
		return nil
	}
}

// A node decommissioned while an ASYNC repair write to it is being written
// leaves nothing behind when the README's procedure is followed
// (RemoveNode; once the reads in flight to it are done, Detector.Forget
// and ForgetReplica; then closing its connection): the write, which
// ForgetReplica lets finish, fails as the connection closes, and its
// outcome must not bring the forgotten node back into the detector,
// convicted and probed for as long as it runs.
func TestAnASyncWriteEndingAfterForgetLeavesNothingBehind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		conns := map[string]*closingConn{}
		nodes := departingRing()
		loc, err := ring.NewLocator(ring.LocatorConfig{
			Nodes:  nodes[:3],
			Tables: map[string]consistency.Replication{tbl: consistency.Simple(3)},
			Connect: func(n ring.Node) (replica.Replica, error) {
				ts := int64(2)
				if n.ID == "n0" {
					ts = 1 // stale: repaired
				}
				conns[n.ID] = &closingConn{ep: n.Endpoint(), ts: ts, closed: make(chan struct{})}
				return conns[n.ID], nil
			},
		})
		require.NoError(t, err)
		det, err := ring.NewDetector(ring.DetectorConfig{Replicas: loc.Replica})
		require.NoError(t, err)
		defer det.Close()
		c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: det,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async}})
		require.NoError(t, err)
		defer c.Close()

		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: "k", Level: consistency.All})
		require.NoError(t, err)
		synctest.Wait() // n0's repair is being written
		require.Equal(t, int64(1), c.Metrics().Total.RepairsSent)

		decommissionN0(t, loc, det, c, nodes[3], conns["n0"])
	})
}

// departingRing returns four nodes of one datacenter, each on a rack of
// its own: a locator of the first three places every key on all of them,
// and the fourth replaces n0 when it leaves.
func departingRing() []ring.Node {
	rng := rand.New(rand.NewPCG(3, 4))
	var nodes []ring.Node
	var r *ring.Ring
	for i := range 4 {
		nodes = append(nodes, ring.Node{ID: "n" + strconv.Itoa(i), Datacenter: "dc1", Rack: "r" + strconv.Itoa(i),
			Tokens: ring.RandomTokens(rng, 8, r)})
		r, _ = ring.New(nodes)
	}
	return nodes
}

// decommissionN0 follows the README's procedure for n0, no read in flight
// to it (RemoveNode with replacement joining; Detector.Forget and
// ForgetReplica; then closing conn, its connection), and checks an hour
// later that the detector neither convicts, tracks nor probes it.
func decommissionN0(t *testing.T, loc *ring.Locator, det *ring.Detector, c *coordinator.Coordinator, replacement ring.Node, conn *closingConn) {
	t.Helper()
	require.NoError(t, loc.AddNode(replacement))
	require.NoError(t, loc.RemoveNode("n0"))
	det.Forget("n0")
	c.ForgetReplica("n0")
	close(conn.closed)
	synctest.Wait()
	probes := conn.probes.Load()
	time.Sleep(time.Hour)
	synctest.Wait()

	assert.Empty(t, det.Down(), "the forgotten node is convicted again")
	for _, s := range det.Nodes(time.Now()) {
		assert.NotEqual(t, "n0", s.Endpoint.ID, "the detector tracks the forgotten node again")
	}
	assert.Equal(t, probes, conn.probes.Load(), "the forgotten node is probed")
}
