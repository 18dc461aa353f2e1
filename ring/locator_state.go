package ring

import (
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/typednil"
	"github.com/readpath/readpath/replica"
)

// locatorState is one immutable version of a Locator: a ring, its nodes'
// replicas and every table's cached placements.
type locatorState struct {
	ring     *Ring
	replicas []replica.Replica // per node of ring, in the ring's node order
	tables   map[string]*tableRanges
	byRepl   map[string]*tableRanges            // the placements, by placementKey
	repls    map[string]consistency.Replication // what tables was built from
	walks    int                                // ranges walked to build it, over all placements
}

// tableRanges is a table's replication and the replicas of each token
// range: ranges[i] for the range ending at the ring's i-th token.
type tableRanges struct {
	repl   consistency.Replication
	ranges [][]replica.Replica
	age    int // updates since the lists were last copied into one array (see fill)
	// placed holds each range's checked placement once a read asked for it
	// (see Locator.LocatePlacement).
	placed []atomic.Pointer[coordinator.Placement]
}

// placement returns range i's placement, making it on first use. Reads
// racing to make one keep the first made.
func (t *tableRanges) placement(i int) (*coordinator.Placement, error) {
	if p := t.placed[i].Load(); p != nil {
		return p, nil
	}
	p, err := coordinator.NewPlacement(t.ranges[i], t.repl)
	if err != nil {
		return nil, err
	}
	if t.placed[i].CompareAndSwap(nil, p) {
		return p, nil
	}
	return t.placed[i].Load(), nil
}

// build returns the state for ring r and tables, reusing the replicas of
// prev for nodes it already had and connecting the others, and node fresh
// (a replacement that reuses the ID of the node it replaces) whatever prev
// had.
func (l *Locator) build(r *Ring, prev *locatorState, tables map[string]consistency.Replication, fresh string) (*locatorState, error) {
	s := &locatorState{ring: r, replicas: make([]replica.Replica, len(r.nodes)), repls: tables}
	renewed := -1 // the position of fresh in r, whose ranges cannot keep prev's lists
	reused := 0   // replicas of prev that s keeps
	for i, n := range r.nodes {
		p := prev
		if n.ID == fresh {
			p, renewed = nil, i
		}
		rep, kept, err := l.replicaFor(n, p)
		if err != nil {
			return nil, err
		}
		if kept {
			reused++
		}
		s.replicas[i] = rep
	}
	// A replica that left (a node removed, or replaced) must not stay
	// reachable through the backing arrays of prev's kept lists, which
	// hold every list they were made with: the placements are compacted.
	dropped := prev != nil && reused < len(prev.replicas)
	s.tables = make(map[string]*tableRanges, len(tables))
	s.byRepl = map[string]*tableRanges{} // tables of a keyspace share
	var diff *tokenDiff                  // from prev's ring, once needed
	for name, repl := range tables {
		key := placementKey(repl)
		if s.byRepl[key] != nil {
			s.tables[name] = s.byRepl[key]
			continue
		}
		var old *tableRanges
		if prev != nil {
			old = prev.byRepl[key]
		}
		switch {
		case old == nil:
			s.byRepl[key] = s.place(repl)
		case prev.ring == r: // the tables changed, not the ring
			s.byRepl[key] = old
		default:
			if diff == nil {
				diff = diffTokens(prev.ring, r, int32(renewed))
			}
			s.byRepl[key] = s.placeChanged(prev.ring, old, diff, dropped)
		}
		s.tables[name] = s.byRepl[key]
	}
	return s, nil
}

// placementKey names a replication unambiguously. (Its String does not:
// datacenter names may hold the ", " and ":" it separates them with.)
func placementKey(repl consistency.Replication) string {
	if repl.IsSimple() {
		return strconv.Itoa(repl.Total())
	}
	var b []byte
	for _, f := range repl.Datacenters() {
		b = strconv.AppendQuote(b, f.Datacenter)
		b = strconv.AppendInt(b, int64(f.Factor), 10)
	}
	return string(b)
}

// replicaFor returns prev's replica of n if n is unchanged there, and
// true, or a new connection.
func (l *Locator) replicaFor(n Node, prev *locatorState) (replica.Replica, bool, error) {
	if prev != nil {
		if i, ok := prev.ring.index[n.ID]; ok && prev.ring.nodes[i].Endpoint() == n.Endpoint() {
			return prev.replicas[i], true, nil
		}
	}
	rep, err := l.connect(n)
	switch {
	case err != nil:
		return nil, false, &ConnectError{Node: n.ID, Err: usable(err, "Connect")}
	case rep == nil:
		return nil, false, &NodeError{ID: n.ID, Reason: "Connect returned a nil replica"}
	case typednil.Holds(rep):
		return nil, false, &NodeError{ID: n.ID, Reason: fmt.Sprintf("Connect returned a nil %T", rep)}
	}
	ep, v := endpointOf(rep)
	switch {
	case v != nil:
		return nil, false, &NodeError{ID: n.ID, Reason: fmt.Sprintf("Connect returned a %T whose Endpoint panics: %v", rep, v)}
	case ep != n.Endpoint():
		return nil, false, &NodeError{ID: n.ID, Reason: "Connect returned a replica for " + ep.String()}
	}
	return rep, false, nil
}

// endpointOf returns rep's endpoint, or what its Endpoint panicked with:
// a wrapper of a nil connection, say, which the coordinator would take
// for a bad placement at every read.
func endpointOf(rep replica.Replica) (ep replica.Endpoint, v any) {
	defer func() { v = recover() }()
	return rep.Endpoint(), nil
}

// place computes the replicas of every token range under repl.
func (s *locatorState) place(repl consistency.Replication) *tableRanges {
	return s.fill(repl, keep{})
}

// keep says which lists of an earlier placement a new one keeps: range i
// of the new ring keeps old's range from[i], unless that is -1 or i is
// reached. walked holds the ranges walked already, if any.
type keep struct {
	old    *tableRanges
	from   []int
	reach  []bool
	walked *walkLog
	// compact: copy the kept lists, whatever old's age.
	compact bool
}

func (k keep) list(i int) []replica.Replica {
	if k.old == nil || k.from[i] < 0 || k.reach[i] {
		return nil
	}
	return k.old.ranges[k.from[i]]
}

// fill computes the replicas of every token range under repl: the lists k
// keeps, those k walked, and walks for the others. The walked lists share one new backing
// array, each capped at its length so that an append by a caller cannot
// overwrite its neighbour. Kept lists stay in the backing arrays of
// earlier placements, which they keep alive; once a placement is
// compactAfter updates old they are copied into the new array too, so that
// the memory a placement holds stays within a small multiple of its size.
func (s *locatorState) fill(repl consistency.Replication, k keep) *tableRanges {
	t := &tableRanges{repl: repl, ranges: make([][]replica.Replica, len(s.ring.tokens))}
	t.placed = make([]atomic.Pointer[coordinator.Placement], len(t.ranges))
	if k.old != nil && !k.compact {
		t.age = (k.old.age + 1) % (compactAfter + 1)
	}
	walked := len(s.ring.tokens)
	if t.age > 0 {
		for i := range t.ranges {
			if l := k.list(i); l != nil {
				t.ranges[i] = l
				walked--
			}
		}
	}
	w := s.ring.newWalker(repl)
	var picked []int32
	backing := make([]replica.Replica, 0, walked*w.perWalk())
	for i := range t.ranges {
		if t.ranges[i] != nil {
			continue
		}
		start := len(backing)
		if l := k.list(i); l != nil {
			backing = append(backing, l...)
		} else {
			list := k.walked.taken(i)
			if list == nil {
				picked = w.walk(i, picked)
				list = picked
			}
			for _, n := range list {
				backing = append(backing, s.replicas[n])
			}
		}
		t.ranges[i] = backing[start:len(backing):len(backing)]
	}
	s.walks += w.walks
	return t
}

// compactAfter is how many updates a placement's kept lists may stay in
// earlier backing arrays.
const compactAfter = 8
