package ring

import (
	"fmt"
	"slices"
)

// A topology change derives the new ring from the old one: the token list
// stays sorted, so a joining node's tokens are merged into it and a leaving
// node's filtered out, in time linear in the ring's tokens. Re-sorting every
// token, as New must, took half of a change on a ring of 1,000 nodes.

// With returns a ring that also holds n, as when a node joins. It fails
// like New, and r is unchanged either way.
func (r *Ring) With(n Node) (*Ring, error) {
	if err := checkNode(n); err != nil {
		return nil, err
	}
	if _, dup := r.index[n.ID]; dup {
		return nil, &DuplicateNodeError{ID: n.ID}
	}
	n.Tokens = slices.Clone(n.Tokens)
	nodes := append(slices.Clip(r.nodes), n)
	tokens, owners, err := merge(r.tokens, r.owners, n.Tokens, int32(len(r.nodes)), nodes)
	if err != nil {
		return nil, err
	}
	return derive(nodes, tokens, owners), nil
}

// Without returns the ring without node id, as when a node is
// decommissioned or removed: its ranges pass to the next tokens clockwise.
// An unknown id gets an error matching ErrUnknownNode; removing the last
// node gets one matching ErrInvalidTopology.
func (r *Ring) Without(id string) (*Ring, error) {
	i, ok := r.index[id]
	switch {
	case !ok:
		return nil, unknownNode(id)
	case len(r.nodes) == 1:
		return nil, fmt.Errorf("%w: no nodes", ErrInvalidTopology)
	}
	nodes := slices.Delete(slices.Clone(r.nodes), i, i+1)
	tokens, owners := r.drop(int32(i), true)
	return derive(nodes, tokens, owners), nil
}

// Replacing returns the ring where n takes the place of node old, as
// Cassandra's replace_address does: n holds old's tokens unless n.Tokens
// is set. An unknown old gets an error matching ErrUnknownNode; n is
// checked like any node of New.
func (r *Ring) Replacing(old string, n Node) (*Ring, error) {
	i, ok := r.index[old]
	if !ok {
		return nil, unknownNode(old)
	}
	if len(n.Tokens) == 0 {
		n.Tokens = r.nodes[i].Tokens // shared: a ring's tokens are never modified
	} else {
		n.Tokens = slices.Clone(n.Tokens)
	}
	if err := checkNode(n); err != nil {
		return nil, err
	}
	if j, dup := r.index[n.ID]; dup && j != i {
		return nil, &DuplicateNodeError{ID: n.ID}
	}
	nodes := slices.Clone(r.nodes)
	nodes[i] = n
	if sameTokens(n.Tokens, r.nodes[i].Tokens) {
		return derive(nodes, r.tokens, r.owners), nil
	}
	tokens, owners := r.drop(int32(i), false)
	tokens, owners, err := merge(tokens, owners, n.Tokens, int32(i), nodes)
	if err != nil {
		return nil, err
	}
	return derive(nodes, tokens, owners), nil
}

func sameTokens(a, b []int64) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b))
}

// checkNode rejects a node New would reject on its own.
func checkNode(n Node) error {
	switch {
	case n.ID == "":
		return &NodeError{ID: n.ID, Reason: "empty ID"}
	case len(n.Tokens) == 0:
		return &NodeError{ID: n.ID, Reason: "no tokens"}
	}
	return nil
}

// drop returns r's token list without the tokens of node i; renumber says
// that the nodes after i move down one place.
func (r *Ring) drop(i int32, renumber bool) ([]int64, []int32) {
	n := len(r.tokens) - len(r.nodes[i].Tokens)
	tokens, owners := make([]int64, 0, n), make([]int32, 0, n)
	for k, o := range r.owners {
		switch {
		case o == i:
			continue
		case renumber && o > i:
			o--
		}
		tokens, owners = append(tokens, r.tokens[k]), append(owners, o)
	}
	return tokens, owners
}

// merge returns the sorted token list (tokens, owners) with add, the tokens
// of node at, merged in. A token held twice gets the *DuplicateTokenError
// New would report: the smallest such token, its holders in nodes' order.
func merge(tokens []int64, owners []int32, add []int64, at int32, nodes []Node) ([]int64, []int32, error) {
	add = slices.Clone(add)
	slices.Sort(add)
	n := len(tokens) + len(add)
	outT, outO := make([]int64, 0, n), make([]int32, 0, n)
	j := 0
	for k := 0; k < len(tokens) || j < len(add); {
		var t int64
		var o int32
		if j == len(add) || k < len(tokens) && vnodeLess(tokens[k], owners[k], add[j], at) {
			t, o = tokens[k], owners[k]
			k++
		} else {
			t, o = add[j], at
			j++
		}
		if last := len(outT) - 1; last >= 0 && outT[last] == t {
			return nil, nil, &DuplicateTokenError{Token: t, Nodes: [2]string{nodes[outO[last]].ID, nodes[o].ID}}
		}
		outT, outO = append(outT, t), append(outO, o)
	}
	return outT, outO, nil
}

// vnodeLess orders vnodes by token, then by node: New's order.
func vnodeLess(t1 int64, o1 int32, t2 int64, o2 int32) bool {
	return t1 < t2 || t1 == t2 && o1 < o2
}

// derive completes a ring from its nodes and sorted token list: the node
// index and the datacenter and rack numbering.
func derive(nodes []Node, tokens []int64, owners []int32) *Ring {
	r := &Ring{nodes: nodes, index: make(map[string]int, len(nodes)), tokens: tokens, owners: owners}
	for i, n := range nodes {
		r.index[n.ID] = i
	}
	r.locate()
	return r
}
