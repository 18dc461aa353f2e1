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
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// churnConn is a node's connection: it refuses while its node is down and
// counts the probes it is sent.
type churnConn struct {
	ep     replica.Endpoint
	down   atomic.Bool
	probes atomic.Int64
}

func (c *churnConn) Endpoint() replica.Endpoint { return c.ep }

func (c *churnConn) Read(_ context.Context, cmd replica.Command) (replica.Response, error) {
	if c.down.Load() {
		return replica.Response{}, replica.ErrConnectionFailed
	}
	return cmd.Respond(replica.Partition{Key: cmd.Key})
}

func (c *churnConn) Apply(context.Context, replica.Mutation) error { return nil }

func (c *churnConn) Probe(context.Context) error {
	c.probes.Add(1)
	if c.down.Load() {
		return replica.ErrConnectionFailed
	}
	return nil
}

// Nodes that die, are convicted and leave, one after another, leave
// nothing behind when the README's procedure is followed (RemoveNode, then
// Detector.Forget and ForgetReplica): the detector lists and probes only
// live nodes, and the coordinator's replica rows are live nodes only.
func TestNodesThatLeaveLeaveNothingBehind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		conns := map[string]*churnConn{}
		next := 0
		newNode := func(r *ring.Ring) ring.Node {
			next++
			return ring.Node{ID: "n" + strconv.Itoa(next), Datacenter: "dc1", Rack: "r" + strconv.Itoa(next%3),
				Tokens: ring.RandomTokens(rng, 8, r)}
		}
		var nodes []ring.Node
		for range 6 {
			r, _ := ring.New(nodes)
			nodes = append(nodes, newNode(r))
		}
		loc, err := ring.NewLocator(ring.LocatorConfig{
			Nodes:  nodes,
			Tables: map[string]consistency.Replication{tbl: consistency.Simple(3)},
			Connect: func(n ring.Node) (replica.Replica, error) {
				conns[n.ID] = &churnConn{ep: n.Endpoint()}
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

		probesAtForget := map[string]int64{}
		for cycle := range 30 {
			live := loc.Ring().Nodes()
			victim := live[rng.IntN(len(live))].ID
			conns[victim].down.Store(true)
			for k := range 20 { // reads at ALL reach it and convict it
				_, _ = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: strconv.Itoa(cycle*20 + k), Level: consistency.All})
			}
			require.Contains(t, det.Down(), victim)
			time.Sleep(30 * time.Second) // probed meanwhile
			require.NoError(t, loc.AddNode(newNode(loc.Ring())))
			require.NoError(t, loc.RemoveNode(victim))
			det.Forget(victim)
			c.ForgetReplica(victim)
			probesAtForget[victim] = conns[victim].probes.Load()
		}
		time.Sleep(time.Hour)
		synctest.Wait()

		live := map[string]bool{}
		for _, n := range loc.Ring().Nodes() {
			live[n.ID] = true
		}
		for id, n := range probesAtForget {
			assert.Positive(t, n, "%s was never probed: the test convicts nothing", id)
			assert.Equal(t, n, conns[id].probes.Load(), "%s probed after Forget", id)
		}
		assert.Empty(t, det.Down())
		for _, s := range det.Nodes(time.Now()) {
			assert.True(t, live[s.Endpoint.ID], "the detector still tracks %s", s.Endpoint.ID)
		}
		for _, r := range c.Metrics().Replicas {
			assert.True(t, live[r.Endpoint.ID], "the coordinator still lists %s", r.Endpoint.ID)
		}
	})
}
