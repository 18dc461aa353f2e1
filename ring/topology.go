package ring

import "slices"

// With returns a ring that also holds n, as when a node joins. It fails
// like New, and r is unchanged either way.
func (r *Ring) With(n Node) (*Ring, error) {
	return New(append(r.Nodes(), n))
}

// Without returns the ring without node id, as when a node is
// decommissioned or removed: its ranges pass to the next tokens clockwise.
// An unknown id gets an error matching ErrUnknownNode; removing the last
// node gets one matching ErrInvalidTopology.
func (r *Ring) Without(id string) (*Ring, error) {
	i, ok := r.index[id]
	if !ok {
		return nil, unknownNode(id)
	}
	return New(slices.Delete(r.Nodes(), i, i+1))
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
		n.Tokens = r.nodes[i].Tokens
	}
	nodes := r.Nodes()
	nodes[i] = n
	return New(nodes)
}
