package replicatest

import (
	"math/rand/v2"
	"slices"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/zeebo/xxh3"
)

// ring is a token ring: each node owns TokensPerNode pseudo-random tokens,
// a key's token is its xxh3 hash, and the key's replicas are found by
// walking clockwise from the first token at or after it. The walk's result
// is precomputed for every token, so that placing a key is a hash and a
// binary search. A ring is immutable.
type ring struct {
	tokens []uint64    // sorted
	owners []placement // owners[i]: the replicas of keys whose walk starts at tokens[i]
}

// placement is the replicas of some keys, also as the slice Locate hands
// out, shared by every caller, as a real locator caches the replicas of
// each token range.
type placement struct {
	nodes    []*Replica
	replicas []replica.Replica
}

func newPlacement(nodes []*Replica) placement {
	rs := make([]replica.Replica, len(nodes))
	for i, n := range nodes {
		rs[i] = n
	}
	return placement{nodes, rs}
}

// vnode is one token of one node, during construction.
type vnode struct {
	token uint64
	node  int
}

// pcgStream is the second PCG seed word: a seed alone picks the tokens.
const pcgStream = 0x9e3779b97f4a7c15

// newRing places nodes on a ring drawn from seed and precomputes each
// token's replicas under rep, which must already be validated against them.
func newRing(nodes []*Replica, tokensPerNode int, seed uint64, rep consistency.Replication) *ring {
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	vnodes := make([]vnode, 0, len(nodes)*tokensPerNode)
	for i := range nodes {
		for range tokensPerNode {
			vnodes = append(vnodes, vnode{rng.Uint64(), i})
		}
	}
	slices.SortFunc(vnodes, func(a, b vnode) int {
		if a.token != b.token {
			return cmpUint64(a.token, b.token)
		}
		return a.node - b.node
	})
	g := &ring{tokens: make([]uint64, len(vnodes)), owners: make([]placement, len(vnodes))}
	racks := rackCounts(nodes)
	for i, v := range vnodes {
		g.tokens[i] = v.token
		g.owners[i] = newPlacement(walk(nodes, vnodes, i, rep, racks))
	}
	return g
}

func cmpUint64(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

// locate returns the replicas of key, in ring order. Do not modify them.
func (g *ring) locate(key string) placement {
	t := xxh3.HashString(key)
	i, _ := slices.BinarySearch(g.tokens, t)
	if i == len(g.tokens) {
		i = 0
	}
	return g.owners[i]
}

// walk collects the replicas of a walk starting at vnodes[from]; racks is
// rackCounts(nodes).
func walk(nodes []*Replica, vnodes []vnode, from int, rep consistency.Replication, racks map[string]int) []*Replica {
	pick := newPicker(nodes, rep, racks)
	for step := range vnodes {
		if pick.done() {
			break
		}
		pick.offer(vnodes[(from+step)%len(vnodes)].node)
	}
	return pick.chosen
}
