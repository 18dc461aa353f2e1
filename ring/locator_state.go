package ring

import (
	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// locatorState is one immutable version of a Locator: a ring, its nodes'
// replicas and every table's cached placements.
type locatorState struct {
	ring     *Ring
	replicas []replica.Replica // per node of ring, in the ring's node order
	tables   map[string]*tableRanges
	repls    map[string]consistency.Replication // what tables was built from
}

// tableRanges is a table's replication and the replicas of each token
// range: ranges[i] for the range ending at the ring's i-th token.
type tableRanges struct {
	repl   consistency.Replication
	ranges [][]replica.Replica
}

// build returns the state for ring r and tables, reusing the replicas of
// prev for nodes it already had and connecting the others.
func (l *Locator) build(r *Ring, prev *locatorState, tables map[string]consistency.Replication) (*locatorState, error) {
	s := &locatorState{ring: r, replicas: make([]replica.Replica, len(r.nodes)), repls: tables}
	for i, n := range r.nodes {
		rep, err := l.replicaFor(n, prev)
		if err != nil {
			return nil, err
		}
		s.replicas[i] = rep
	}
	s.tables = make(map[string]*tableRanges, len(tables))
	shared := map[string]*tableRanges{} // by replication: tables of a keyspace share
	for name, repl := range tables {
		key := repl.String()
		if shared[key] == nil {
			shared[key] = s.place(repl)
		}
		s.tables[name] = shared[key]
	}
	return s, nil
}

// replicaFor returns prev's replica of n if n is unchanged there, or a new
// connection.
func (l *Locator) replicaFor(n Node, prev *locatorState) (replica.Replica, error) {
	if prev != nil {
		if i, ok := prev.ring.index[n.ID]; ok && prev.ring.nodes[i].Endpoint() == n.Endpoint() {
			return prev.replicas[i], nil
		}
	}
	rep, err := l.connect(n)
	switch {
	case err != nil:
		return nil, &ConnectError{Node: n.ID, Err: err}
	case rep == nil:
		return nil, &NodeError{ID: n.ID, Reason: "Connect returned a nil replica"}
	case rep.Endpoint() != n.Endpoint():
		return nil, &NodeError{ID: n.ID, Reason: "Connect returned a replica for " + rep.Endpoint().String()}
	}
	return rep, nil
}

// place computes the replicas of every token range under repl. The lists
// share one backing array; each is capped at its length so that an append
// by a caller cannot overwrite its neighbour.
func (s *locatorState) place(repl consistency.Replication) *tableRanges {
	w := s.ring.newWalker(repl)
	t := &tableRanges{repl: repl, ranges: make([][]replica.Replica, len(s.ring.tokens))}
	var picked []int32
	backing := make([]replica.Replica, 0, len(s.ring.tokens)*min(repl.Total(), len(s.ring.nodes)))
	for i := range s.ring.tokens {
		picked = w.walk(i, picked)
		start := len(backing)
		for _, n := range picked {
			backing = append(backing, s.replicas[n])
		}
		t.ranges[i] = backing[start:len(backing):len(backing)]
	}
	return t
}
