package ring

import "github.com/readpath/readpath/consistency"

// AddNode adds n to the ring, as when a node joins, connecting to it. It
// fails like Ring.With, with a *ConnectError, or with a *NodeError for a
// replica Connect returns nil or for another endpoint, and then changes
// nothing.
//
// n is a read replica from then on: call AddNode once n holds its data.
// Cassandra reads from a joining node only once its bootstrap (streaming)
// has finished; until then it is a write target only (its ranges are
// pending), which readpath's read path does not model, and a node added
// early answers reads with no data. When n reuses the ID of a node removed
// earlier, see ReplaceNode for what to tell the detector and coordinator.
func (l *Locator) AddNode(n Node) error {
	return l.changeNode("", func(s *locatorState) (*Ring, error) { return s.ring.With(n) })
}

// RemoveNode removes node id from the ring. Its replica is not closed:
// reads in flight may still use it, so close it once they are done. The
// Locator holds it no longer (only placements handed out before the
// change do), nor ReplaceNode the connection it replaces. An unknown id
// gets an error matching ErrUnknownNode.
//
// It removes the last node of a datacenter that tables replicate to too:
// the node may be dead, and the Locator follows the cluster rather than
// guarding it (Cassandra's decommission refuses, unless forced, to leave a
// datacenter with no more nodes than a keyspace's factor there). Those
// tables then have no replicas there, and SetTable refuses their
// replication until the datacenter has a node again or a factor of 0.
func (l *Locator) RemoveNode(id string) error {
	return l.changeNode("", func(s *locatorState) (*Ring, error) { return s.ring.Without(id) })
}

// ReplaceNode puts n in the place of node old, with old's tokens unless
// n.Tokens is set (see Ring.Replacing), connecting to n, even when n
// reuses old's ID.
//
// n may sit in another rack or datacenter than old: the replicas of its
// ranges move at once, and no data moves with them. Cassandra refuses a
// node's new rack or datacenter (CASSANDRA-10242), as its data is not
// streamed; the Locator follows the cluster rather than guarding it.
//
// Like AddNode, call it once n holds its data: Cassandra reads from a
// replacing node only once it has streamed old's ranges; until then old
// stays in the ring, down, and its ranges are read from its other
// replicas. When n reuses old's ID, or AddNode brings back a removed node's
// ID, call Detector.Forget(id) and coordinator.Coordinator.ForgetReplica(id)
// to give the node a fresh start at once: the detector may still hold the
// old connection's conviction, and the snitch its misses. With
// DetectorConfig.Replicas set to Locator.Replica the conviction heals
// anyway, at the next probe, made through the new connection; without it,
// the detector probes the old, dead connection, and Forget must wait until
// the reads in flight to it are done, or a failure they report convicts
// the ID again.
func (l *Locator) ReplaceNode(old string, n Node) error {
	return l.changeNode(n.ID, func(s *locatorState) (*Ring, error) { return s.ring.Replacing(old, n) })
}

// SetTable sets the replication of table, adding the table if it is new.
// An empty name or an invalid replication gets a *ConfigError, and so does
// a replication that places replicas in a datacenter where the ring has no
// node, wrapping a *DatacenterError, as Cassandra refuses an unknown
// datacenter at CREATE or ALTER KEYSPACE. A datacenter given a factor of 0
// need not exist. A refused SetTable changes nothing.
func (l *Locator) SetTable(table string, repl consistency.Replication) error {
	if err := checkTable(table, repl); err != nil {
		return err
	}
	return l.changeTables(func(r *Ring, t map[string]consistency.Replication) error {
		if err := checkTableDatacenters(r, table, repl); err != nil {
			return err
		}
		t[table] = repl
		return nil
	})
}

// RemoveTable removes table; Locate then fails for it with a *TableError.
// Removing an unknown table does nothing.
func (l *Locator) RemoveTable(table string) {
	_ = l.changeTables(func(_ *Ring, t map[string]consistency.Replication) error {
		delete(t, table)
		return nil
	})
}

// changeNode applies a topology change: the new state is built aside and
// swapped in, so reads never wait for it. Node fresh, if not "", is
// connected anew.
func (l *Locator) changeNode(fresh string, next func(*locatorState) (*Ring, error)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.state.Load()
	r, err := next(old)
	if err != nil {
		return err
	}
	s, err := l.build(r, old, old.repls, fresh)
	if err != nil {
		return err
	}
	l.state.Store(s)
	return nil
}

// changeTables applies edit to a copy of the tables, checking them against
// the current ring, and swaps in the result unless edit fails.
func (l *Locator) changeTables(edit func(*Ring, map[string]consistency.Replication) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.state.Load()
	tables := cloneTables(old.repls)
	if err := edit(old.ring, tables); err != nil {
		return err
	}
	s, err := l.build(old.ring, old, tables, "")
	if err != nil {
		return err
	}
	l.state.Store(s)
	return nil
}
