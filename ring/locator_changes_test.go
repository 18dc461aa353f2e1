package ring_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// reviewKeys are the keys whose tokens the review's nodes hold: key i is
// exactly on a node's token, so a Locate of it meets the (prev, tok]
// boundary, and keys not in the pool fall between tokens.
func reviewKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "rk" + strconv.Itoa(i)
	}
	return keys
}

// reviewTopologyGen draws nodes whose tokens are those of reviewKeys.
type reviewTopologyGen struct {
	rng  *rand.Rand
	keys []string
	free []int // indexes of keys whose token no node holds
	next int
}

func (g *reviewTopologyGen) tokens(n int) []int64 {
	var out []int64
	for range n {
		if len(g.free) == 0 {
			break
		}
		i := g.rng.IntN(len(g.free))
		out = append(out, ring.Murmur3Token([]byte(g.keys[g.free[i]])))
		g.free = slices.Delete(g.free, i, i+1)
	}
	return out
}

func (g *reviewTopologyGen) release(tokens []int64) {
	for _, tok := range tokens {
		for i, k := range g.keys {
			if ring.Murmur3Token([]byte(k)) == tok {
				g.free = append(g.free, i)
			}
		}
	}
}

func (g *reviewTopologyGen) place(n *ring.Node) {
	n.Datacenter = "dc" + strconv.Itoa(1+g.rng.IntN(2))
	n.Rack = "r" + strconv.Itoa(1+g.rng.IntN(3))
}

func (g *reviewTopologyGen) node() ring.Node {
	g.next++
	n := ring.Node{ID: "n" + strconv.Itoa(g.next), Tokens: g.tokens(1 + g.rng.IntN(3))}
	g.place(&n)
	return n
}

// reviewLocatorAgrees checks that every table's Locate, for every key of
// the pool and some others, gives in order the nodes l.Ring().ReplicasFor
// gives, through the connection l.Replica holds for each node now.
func reviewLocatorAgrees(t *testing.T, l *ring.Locator, tables map[string]consistency.Replication, keys []string, step int) {
	t.Helper()
	r := l.Ring()
	for name, repl := range tables {
		for _, key := range keys {
			reps, got, err := l.Locate(name, key)
			require.NoError(t, err)
			require.Equal(t, repl.String(), got.String())
			want, err := r.ReplicasFor(ring.Murmur3Token([]byte(key)), repl)
			require.NoError(t, err)
			require.Equal(t, ids(want), endpointIDs(reps), "step %d table %s key %q", step, name, key)
			for _, rep := range reps {
				cur, ok := l.Replica(rep.Endpoint().ID)
				require.True(t, ok)
				require.Same(t, cur.(*replicatest.Replica), rep.(*replicatest.Replica),
					"step %d: %s is located through a connection the Locator no longer holds", step, rep.Endpoint().ID)
				n, _ := r.Node(rep.Endpoint().ID)
				require.Equal(t, n.Endpoint(), rep.Endpoint())
			}
		}
	}
}

// A long random sequence of every change the Locator makes (AddNode,
// RemoveNode, ReplaceNode under a new ID, under the same ID in another
// rack or datacenter, with new tokens, and SetTable), on rings whose
// tokens are keys' tokens: after each, Locate agrees with a fresh
// ReplicasFor on the current ring and goes through the current connections.
func TestLocatorChangesAgreeWithReplicasFor(t *testing.T) {
	for seed := range uint64(3) {
		g := &reviewTopologyGen{rng: rand.New(rand.NewPCG(seed, 99)), keys: reviewKeys(120)}
		for i := range g.keys {
			g.free = append(g.free, i)
		}
		var nodes []ring.Node
		for _, dc := range []string{"dc1", "dc2", "dc1", "dc2", "dc1"} {
			n := g.node()
			n.Datacenter = dc
			nodes = append(nodes, n)
		}
		tables := map[string]consistency.Replication{
			"s2":   consistency.Simple(2),
			"nts":  consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 2}),
			"nts1": consistency.NetworkTopology(map[string]int{"dc1": 1, "dc2": 4}),
		}
		l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Tables: tables,
			Connect: func(n ring.Node) (replica.Replica, error) { return replicatest.NewReplica(n.Endpoint()), nil }})
		require.NoError(t, err)
		probe := append(slices.Clone(g.keys), "", "other", "\xff\xfe", "a longer key of more than sixteen bytes")
		reviewLocatorAgrees(t, l, tables, probe, -1)
		for step := range 50 {
			cur := l.Ring().Nodes()
			victim := cur[g.rng.IntN(len(cur))]
			switch g.rng.IntN(7) {
			case 0, 1:
				n := g.node()
				if len(n.Tokens) > 0 && l.AddNode(n) != nil {
					g.release(n.Tokens)
				}
			case 2:
				if len(cur) > 3 && l.RemoveNode(victim.ID) == nil {
					g.release(victim.Tokens)
				}
			case 3: // a new node takes the victim's tokens
				n := g.node()
				g.release(n.Tokens)
				n.Tokens = nil
				n.Datacenter, n.Rack = victim.Datacenter, victim.Rack
				require.NoError(t, l.ReplaceNode(victim.ID, n))
			case 4: // the same ID comes back in another place
				n := ring.Node{ID: victim.ID}
				g.place(&n)
				require.NoError(t, l.ReplaceNode(victim.ID, n))
			case 5: // the same ID with other tokens
				n := ring.Node{ID: victim.ID, Datacenter: victim.Datacenter, Rack: victim.Rack, Tokens: g.tokens(1 + g.rng.IntN(2))}
				if len(n.Tokens) == 0 {
					continue
				}
				require.NoError(t, l.ReplaceNode(victim.ID, n))
				g.release(victim.Tokens)
			case 6:
				repl := consistency.NetworkTopology(map[string]int{"dc1": g.rng.IntN(4), "dc2": 1 + g.rng.IntN(3)})
				if l.SetTable("nts1", repl) == nil {
					tables["nts1"] = repl
				}
			}
			reviewLocatorAgrees(t, l, tables, probe, step)
		}
	}
}

// Locate, Replica and Ring may run while changes are made: each Locate's
// list is one some version of the Locator would give, and all its
// replicas are connections of nodes of that version. Run with -race.
func TestLocatorReadsDuringChanges(t *testing.T) {
	g := &reviewTopologyGen{rng: rand.New(rand.NewPCG(3, 3)), keys: reviewKeys(60)}
	for i := range g.keys {
		g.free = append(g.free, i)
	}
	var nodes []ring.Node
	for range 6 {
		nodes = append(nodes, g.node())
	}
	nodes[0].Datacenter, nodes[1].Datacenter = "dc1", "dc2"
	tables := map[string]consistency.Replication{"t": consistency.NetworkTopology(map[string]int{"dc1": 2, "dc2": 1})}
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Tables: tables,
		Connect: func(n ring.Node) (replica.Replica, error) { return replicatest.NewReplica(n.Endpoint()), nil }})
	require.NoError(t, err)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	bad := make(chan string, 4)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := g.keys[(i*7+w)%len(g.keys)]
				reps, _, err := l.Locate("t", key)
				if err != nil || len(reps) == 0 {
					bad <- "no replicas for " + key
					return
				}
				seen := map[string]bool{}
				for _, rep := range reps {
					id := rep.Endpoint().ID
					if seen[id] {
						bad <- "a node twice for " + key
						return
					}
					seen[id] = true
				}
				_ = l.Ring().Len()
				_, _ = l.Replica(reps[0].Endpoint().ID)
			}
		}()
	}
	for range 150 {
		cur := l.Ring().Nodes()
		victim := cur[g.rng.IntN(len(cur))]
		switch g.rng.IntN(3) {
		case 0:
			n := g.node()
			if len(n.Tokens) > 0 && l.AddNode(n) != nil {
				g.release(n.Tokens)
			}
		case 1:
			if len(cur) > 4 && l.RemoveNode(victim.ID) == nil {
				g.release(victim.Tokens)
			}
		case 2:
			n := ring.Node{ID: victim.ID}
			g.place(&n)
			_ = l.ReplaceNode(victim.ID, n)
		}
	}
	close(stop)
	wg.Wait()
	close(bad)
	for b := range bad {
		t.Error(b)
	}
}
