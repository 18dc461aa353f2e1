package ring

import (
	"fmt"
	"slices"
	"sync"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// Node is a member of the ring: a unique ID, where it lives, and the tokens
// it holds. A node owns the range of tokens from its predecessor's token
// (exclusive) to each of its tokens (inclusive). A Node is a plain value;
// sharing one between goroutines is safe as long as nobody modifies its
// Tokens.
type Node struct {
	ID         string
	Datacenter string
	Rack       string
	Tokens     []int64
}

// Endpoint returns the node's identity as a replica.Endpoint.
func (n Node) Endpoint() replica.Endpoint {
	return replica.Endpoint{ID: n.ID, Datacenter: n.Datacenter, Rack: n.Rack}
}

// Ring is a token ring: the nodes of a cluster and the tokens they hold, as
// Cassandra's TokenMetadata sees them. A Ring is immutable and safe for
// concurrent use; topology changes (With, Without, Replacing) return a new
// Ring. The zero Ring is not usable: make one with New.
type Ring struct {
	nodes  []Node         // copies, in input order
	index  map[string]int // node ID -> position in nodes
	tokens []int64        // sorted
	owners []int32        // owners[i]: position in nodes of the holder of tokens[i]
	dcs    map[string]int // datacenter name -> position in dcInfo
	dcInfo []datacenter   // per datacenter: node and rack counts
	nodeDC []int32        // per node: its datacenter's position
	rackOf []int32        // per node: its (datacenter, rack) pair's number
	racks  int            // number of distinct (datacenter, rack) pairs
	byRack rackIndex      // for walks that meet many tokens they may not take
	// walkers keeps ReplicasFor's walkers: their flags per node would make
	// a call's cost grow with the ring.
	walkers sync.Pool
}

type datacenter struct {
	nodes, racks int
}

// New returns the ring of nodes. The nodes and their tokens are copied. It
// returns an error matching ErrInvalidTopology if there are no nodes, a
// node has an empty ID or no tokens (*NodeError), two nodes share an ID
// (*DuplicateNodeError), or a token is held twice (*DuplicateTokenError).
func New(nodes []Node) (*Ring, error) {
	if len(nodes) == 0 {
		return nil, fmt.Errorf("%w: no nodes", ErrInvalidTopology)
	}
	r := &Ring{nodes: make([]Node, len(nodes)), index: make(map[string]int, len(nodes))}
	for i, n := range nodes {
		if err := r.addNode(i, n); err != nil {
			return nil, err
		}
	}
	if err := r.sortTokens(); err != nil {
		return nil, err
	}
	r.locate()
	return r, nil
}

func (r *Ring) addNode(i int, n Node) error {
	if err := checkNode(n); err != nil {
		return err
	}
	if _, dup := r.index[n.ID]; dup {
		return &DuplicateNodeError{ID: n.ID}
	}
	n.Tokens = slices.Clone(n.Tokens)
	r.nodes[i] = n
	r.index[n.ID] = i
	return nil
}

// sortTokens builds the sorted token list and rejects a token held twice.
func (r *Ring) sortTokens() error {
	type vnode struct {
		token int64
		node  int32
	}
	var vs []vnode
	for i, n := range r.nodes {
		for _, t := range n.Tokens {
			vs = append(vs, vnode{t, int32(i)})
		}
	}
	slices.SortFunc(vs, func(a, b vnode) int { // by token, then in input order
		if c := cmpInt64(a.token, b.token); c != 0 {
			return c
		}
		return int(a.node - b.node)
	})
	r.tokens = make([]int64, len(vs))
	r.owners = make([]int32, len(vs))
	for i, v := range vs {
		if i > 0 && vs[i-1].token == v.token {
			first, second := r.nodes[vs[i-1].node].ID, r.nodes[v.node].ID
			return &DuplicateTokenError{Token: v.token, Nodes: [2]string{first, second}}
		}
		r.tokens[i], r.owners[i] = v.token, v.node
	}
	return nil
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// locate numbers the datacenters and (datacenter, rack) pairs.
func (r *Ring) locate() {
	r.dcs = map[string]int{}
	r.nodeDC = make([]int32, len(r.nodes))
	r.rackOf = make([]int32, len(r.nodes))
	racks := map[[2]string]int32{}
	for i, n := range r.nodes {
		d, ok := r.dcs[n.Datacenter]
		if !ok {
			d = len(r.dcInfo)
			r.dcs[n.Datacenter] = d
			r.dcInfo = append(r.dcInfo, datacenter{})
		}
		r.dcInfo[d].nodes++
		k, ok := racks[[2]string{n.Datacenter, n.Rack}]
		if !ok {
			k = int32(len(racks))
			racks[[2]string{n.Datacenter, n.Rack}] = k
			r.dcInfo[d].racks++
		}
		r.nodeDC[i], r.rackOf[i] = int32(d), k
	}
	r.racks = len(racks)
}

// Len returns the number of nodes.
func (r *Ring) Len() int { return len(r.nodes) }

// Nodes returns the nodes in the order New received them. The slice is a
// copy; the nodes' Tokens are shared and must not be modified.
func (r *Ring) Nodes() []Node { return slices.Clone(r.nodes) }

// Node returns the node with the given ID and whether the ring holds it.
// Its Tokens are shared and must not be modified.
func (r *Ring) Node(id string) (Node, bool) {
	i, ok := r.index[id]
	if !ok {
		return Node{}, false
	}
	return r.nodes[i], true
}

// Tokens returns every token of the ring in ascending order, as a copy.
func (r *Ring) Tokens() []int64 { return slices.Clone(r.tokens) }

// Owner returns the node that owns token: the holder of the first ring
// token at or after it, wrapping past the largest to the smallest. Its
// Tokens are shared and must not be modified.
func (r *Ring) Owner(token int64) Node { return r.nodes[r.owners[r.search(token)]] }

// search returns the position of the first ring token >= token, wrapping
// to 0: the range (tokens[i-1], tokens[i]] holds token.
func (r *Ring) search(token int64) int {
	i, _ := slices.BinarySearch(r.tokens, token)
	if i == len(r.tokens) {
		return 0
	}
	return i
}

// ReplicasFor returns the nodes that hold token under repl, the primary
// replica first, as Cassandra places them (see the package documentation):
// SimpleStrategy for a consistency.Simple replication, the
// NetworkTopologyStrategy of Cassandra 4.1 for consistency.NetworkTopology.
// A datacenter with fewer nodes than its factor contributes all its nodes,
// one the ring does not know contributes none. An invalid repl gets its
// Validate error, which matches consistency.ErrInvalidReplication. The
// slice is the caller's; the nodes' Tokens are shared and must not be
// modified.
func (r *Ring) ReplicasFor(token int64, repl consistency.Replication) ([]Node, error) {
	if err := repl.Validate(); err != nil {
		return nil, err
	}
	w, _ := r.walkers.Get().(*walker)
	if w == nil {
		w = &walker{r: r, taken: make([]bool, len(r.nodes))}
	}
	w.place(repl)
	picked := w.walk(r.search(token), w.picked)
	out := make([]Node, len(picked))
	for i, n := range picked {
		out[i] = r.nodes[n]
	}
	r.walkers.Put(w)
	return out, nil
}
