package ring

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// LocatorConfig configures a Locator. It is a plain value, safe for
// concurrent reads.
type LocatorConfig struct {
	// Nodes is the cluster's initial topology, checked as New checks it.
	// Required.
	Nodes []Node
	// Tables maps each table name to its replication (a keyspace's, in
	// Cassandra's terms). Tables may share a replication; their placements
	// are then computed once.
	Tables map[string]consistency.Replication
	// Connect returns the replica.Replica through which the coordinator
	// reaches node: the embedder's connection. It is called once per node,
	// when the node enters the Locator, never on the read path, and its
	// replica's Endpoint must equal node.Endpoint(). Required.
	Connect func(node Node) (replica.Replica, error)
}

// Locator is a coordinator.Locator over a token ring: Locate hashes the key
// with Murmur3Token and returns the replicas of its token range from a
// cache built when the topology or the tables change, so that it allocates
// nothing and takes no lock. Changes (AddNode, RemoveNode, ReplaceNode,
// SetTable, RemoveTable) are serialised, build a new cache aside and swap it
// in atomically: a read sees the topology before or after a change, never a
// mix. A Locator is safe for concurrent use. The zero Locator is not usable
// (coordinator.New refuses it: see Validate): make one with NewLocator.
type Locator struct {
	mu      sync.Mutex // serialises changes; Locate never takes it
	state   atomic.Pointer[locatorState]
	connect func(Node) (replica.Replica, error)
}

// NewLocator returns a Locator over cfg.Nodes. It returns a *ConfigError
// for a missing Connect, an empty table name, an invalid replication or one
// that places replicas in a datacenter where no node of cfg.Nodes is
// (wrapping a *DatacenterError), the error of New for a bad topology, a
// *ConnectError if Connect fails (it stops there, and does not close the
// connections it made before), and a *NodeError if it returns a nil
// replica, one whose endpoint is not the node's, or one whose Endpoint
// panics.
func NewLocator(cfg LocatorConfig) (*Locator, error) {
	if cfg.Connect == nil {
		return nil, &ConfigError{Setting: "Connect", Reason: "is required"}
	}
	if err := checkTables(cfg.Tables); err != nil {
		return nil, err
	}
	r, err := New(cfg.Nodes)
	if err != nil {
		return nil, err
	}
	if err := checkDatacenters(r, cfg.Tables); err != nil {
		return nil, err
	}
	l := &Locator{connect: cfg.Connect}
	s, err := l.build(r, nil, cloneTables(cfg.Tables), "")
	if err != nil {
		return nil, err
	}
	l.state.Store(s)
	return l, nil
}

// checkTables checks tables in the order of their names, so that the error
// names the same table every time.
func checkTables(tables map[string]consistency.Replication) error {
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		if err := checkTable(name, tables[name]); err != nil {
			return err
		}
	}
	return nil
}

func checkTable(name string, repl consistency.Replication) error {
	if name == "" {
		return &ConfigError{Setting: "table name", Reason: "is empty"}
	}
	if err := repl.Validate(); err != nil {
		return &ConfigError{Setting: "replication of table " + name, Reason: err.Error(), Err: err}
	}
	return nil
}

func cloneTables(t map[string]consistency.Replication) map[string]consistency.Replication {
	out := make(map[string]consistency.Replication, len(t))
	for k, v := range t {
		out[k] = v
	}
	return out
}

// Locate returns the replicas of (table, key) in placement order, the
// primary first, and the table's replication. The key's token is
// Murmur3Token(key): pass the serialized partition key (see CompositeKey).
// The slice is shared by every read of the token range and must not be
// modified. An unknown table gets a *TableError (ErrUnknownTable).
func (l *Locator) Locate(table, key string) ([]replica.Replica, consistency.Replication, error) {
	s := l.state.Load()
	t := s.tables[table]
	if t == nil {
		return nil, consistency.Replication{}, &TableError{Table: table}
	}
	return t.ranges[s.ring.search(token(key))], t.repl, nil
}

var _ coordinator.PlacementLocator = (*Locator)(nil)

// LocatePlacement returns the placement of (table, key): the replicas and
// replication Locate returns, checked once (see coordinator.Placement). A
// token range's placement is made at its first read after the topology or
// the tables change and kept until the next change, so that a coordinator's
// reads do not check the list again, and its DC-local reads ask only the
// local replicas for their endpoints. It returns what Locate would fail
// with, or coordinator.NewPlacement's error.
func (l *Locator) LocatePlacement(table, key string) (*coordinator.Placement, error) {
	s := l.state.Load()
	t := s.tables[table]
	if t == nil {
		return nil, &TableError{Table: table}
	}
	return t.placement(s.ring.search(token(key)))
}

// Ring returns the current ring.
func (l *Locator) Ring() *Ring { return l.state.Load().ring }

// Replica returns the replica of node id, and whether the ring holds it.
func (l *Locator) Replica(id string) (replica.Replica, bool) {
	s := l.state.Load()
	i, ok := s.ring.index[id]
	if !ok {
		return nil, false
	}
	return s.replicas[i], true
}

// Replication returns the replication of table, and whether it is known.
func (l *Locator) Replication(table string) (consistency.Replication, bool) {
	t := l.state.Load().tables[table]
	if t == nil {
		return consistency.Replication{}, false
	}
	return t.repl, true
}
