package ring_test

import (
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// RemoveNode and ReplaceNode let go of the connection that left: the
// Locator keeps no placement list (nor the array behind one) holding it, so
// the embedder's closed connection can be collected without waiting for
// further topology changes.
func TestRemovedNodesConnectionIsReleased(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var nodes []ring.Node
	var r *ring.Ring
	for i := range 12 {
		nodes = append(nodes, ring.Node{ID: "n" + strconv.Itoa(i), Datacenter: "dc1", Rack: "r" + strconv.Itoa(i%3), Tokens: ring.RandomTokens(rng, 16, r)})
		r, _ = ring.New(nodes)
	}
	conns := map[string]weak.Pointer[replicatest.Replica]{}
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes,
		Tables: map[string]consistency.Replication{"t": consistency.Simple(3)},
		Connect: func(n ring.Node) (replica.Replica, error) {
			c := replicatest.NewReplica(n.Endpoint())
			conns[n.ID] = weak.Make(c)
			return c, nil
		}})
	require.NoError(t, err)
	for step := range 3 {
		require.NoError(t, l.AddNode(ring.Node{ID: "x" + strconv.Itoa(step), Datacenter: "dc1", Rack: "r1", Tokens: ring.RandomTokens(rng, 16, l.Ring())}))
	}
	require.NoError(t, l.RemoveNode("n5"))
	old7 := conns["n7"]
	n7, _ := l.Ring().Node("n7")
	require.NoError(t, l.ReplaceNode("n7", ring.Node{ID: "n7", Datacenter: n7.Datacenter, Rack: n7.Rack}))
	for range 3 {
		runtime.GC()
	}
	assert.Nil(t, conns["n5"].Value(), "n5's connection is still reachable after RemoveNode")
	assert.Nil(t, old7.Value(), "n7's old connection is still reachable after ReplaceNode")
	runtime.KeepAlive(l)
}
