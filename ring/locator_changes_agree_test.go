package ring_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

func TestManyChangesPlaceAsAFreshRing(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 7))
		next := 0
		mk := func(r *ring.Ring) ring.Node {
			next++
			dc := "dc1"
			rack := "r" + strconv.Itoa(rng.IntN(2))
			if rng.IntN(3) == 0 {
				dc = "dc2"
				rack = "q" + strconv.Itoa(rng.IntN(4))
			}
			if rng.IntN(10) == 0 {
				rack = "lone" + strconv.Itoa(rng.IntN(2))
			}
			return ring.Node{ID: "n" + strconv.Itoa(next), Datacenter: dc, Rack: rack, Tokens: ring.RandomTokens(rng, 4+rng.IntN(12), r)}
		}
		var nodes []ring.Node
		var r0 *ring.Ring
		for range 30 {
			n := mk(r0)
			nodes = append(nodes, n)
			r0, _ = ring.New(nodes)
		}
		nodes = append(nodes, ring.Node{ID: "d2a", Datacenter: "dc2", Rack: "q9", Tokens: ring.RandomTokens(rng, 2, r0)})
		tables := map[string]consistency.Replication{
			"a": consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}),
			"b": consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}),
			"c": consistency.NetworkTopology(map[string]int{"dc1": 5, "dc2": 2}),
			"s": consistency.Simple(4),
		}
		l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Tables: tables,
			Connect: func(n ring.Node) (replica.Replica, error) { return replicatest.NewReplica(n.Endpoint()), nil }})
		require.NoError(t, err)
		keys := make([]string, 600)
		for i := range keys {
			keys[i] = "k" + strconv.Itoa(i)
		}
		check := func(step int) {
			r := l.Ring()
			for name, repl := range tables {
				for _, key := range keys {
					reps, _, err := l.Locate(name, key)
					require.NoError(t, err)
					want, _ := r.ReplicasFor(ring.Murmur3Token([]byte(key)), repl)
					require.Equal(t, ids(want), endpointIDs(reps), "seed %d step %d table %s key %s", seed, step, name, key)
					p, err := l.LocatePlacement(name, key)
					require.NoError(t, err)
					require.Equal(t, ids(want), endpointIDs(p.Replicas()), "placement seed %d step %d table %s key %s", seed, step, name, key)
					require.Equal(t, repl.String(), p.Replication().String())
				}
			}
		}
		check(-1)
		for step := range 40 {
			cur := l.Ring().Nodes()
			victim := cur[rng.IntN(len(cur))]
			switch rng.IntN(6) {
			case 0, 1:
				require.NoError(t, l.AddNode(mk(l.Ring())))
			case 2:
				if len(cur) > 12 {
					_ = l.RemoveNode(victim.ID)
				}
			case 3:
				n := mk(l.Ring())
				n.Tokens = nil
				require.NoError(t, l.ReplaceNode(victim.ID, n))
			case 4:
				n := mk(l.Ring())
				n.ID = victim.ID
				require.NoError(t, l.ReplaceNode(victim.ID, n))
			case 5:
				repl := consistency.NetworkTopology(map[string]int{"dc1": 1 + rng.IntN(4), "dc2": rng.IntN(4)})
				if l.SetTable("b", repl) == nil {
					tables["b"] = repl
				}
			}
			if rng.IntN(3) == 0 {
				check(step)
			}
		}
		check(99)
	}
}
