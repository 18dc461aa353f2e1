package coordinator_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
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

// Reads run while nodes die, are convicted by the reads' own connection
// failures, and are replaced under their ID (with the README's steps) or
// by a new ID: in the end every node of the ring is up, and only ring nodes
// are tracked.
func TestReplacingNodesUnderLoadHeals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		var mu sync.Mutex
		conns := map[string]*churnConn{}
		var nodes []ring.Node
		var r *ring.Ring
		for i := range 6 {
			nodes = append(nodes, ring.Node{ID: "n" + strconv.Itoa(i), Datacenter: "dc1", Rack: "r" + strconv.Itoa(i%3), Tokens: ring.RandomTokens(rng, 8, r)})
			r, _ = ring.New(nodes)
		}
		loc, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes,
			Tables: map[string]consistency.Replication{tbl: consistency.NetworkTopology(map[string]int{"dc1": 3})},
			Connect: func(n ring.Node) (replica.Replica, error) {
				mu.Lock()
				defer mu.Unlock()
				conns[n.ID] = &churnConn{ep: n.Endpoint()}
				return conns[n.ID], nil
			}})
		require.NoError(t, err)
		det, err := ring.NewDetector(ring.DetectorConfig{Replicas: loc.Replica, Seed: 1})
		require.NoError(t, err)
		defer det.Close()
		c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: det, LocalDatacenter: "dc1"})
		require.NoError(t, err)
		defer c.Close()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for g := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: "k" + strconv.Itoa(g*1000+i%50), Level: consistency.LocalQuorum})
					var u *consistency.UnavailableError
					var f *consistency.ReadFailureError
					if err != nil && !errors.As(err, &u) && !errors.As(err, &f) {
						t.Errorf("read: %v", err)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
		}
		next := 100
		for step := range 30 {
			cur := loc.Ring().Nodes()
			victim := cur[rng.IntN(len(cur))]
			mu.Lock()
			conns[victim.ID].down.Store(true)
			mu.Unlock()
			time.Sleep(500 * time.Millisecond)
			if step%2 == 0 {
				require.NoError(t, loc.ReplaceNode(victim.ID, ring.Node{ID: victim.ID, Datacenter: "dc1", Rack: victim.Rack}))
				det.Forget(victim.ID)
				c.ForgetReplica(victim.ID)
			} else {
				next++
				id := "n" + strconv.Itoa(next)
				require.NoError(t, loc.ReplaceNode(victim.ID, ring.Node{ID: id, Datacenter: "dc1", Rack: victim.Rack}))
				time.Sleep(time.Second) // reads in flight end
				det.Forget(victim.ID)
				c.ForgetReplica(victim.ID)
			}
			time.Sleep(200 * time.Millisecond)
		}
		close(stop)
		wg.Wait()
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		assert.Empty(t, det.Down())
		live := map[string]bool{}
		for _, n := range loc.Ring().Nodes() {
			live[n.ID] = true
		}
		for _, s := range det.Nodes(time.Now()) {
			assert.True(t, live[s.Endpoint.ID], "detector tracks %s", s.Endpoint.ID)
		}
		for _, r := range c.Metrics().Replicas {
			assert.True(t, live[r.Endpoint.ID], "coordinator lists %s", r.Endpoint.ID)
		}
	})
}
