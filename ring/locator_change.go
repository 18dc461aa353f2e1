package ring

import "github.com/readpath/readpath/consistency"

// AddNode adds n to the ring, as when a node joins, connecting to it. It
// fails like Ring.With, or with a *ConnectError, and then changes nothing.
func (l *Locator) AddNode(n Node) error {
	return l.changeNode("", func(s *locatorState) (*Ring, error) { return s.ring.With(n) })
}

// RemoveNode removes node id from the ring. Its replica is not closed:
// reads in flight may still use it, so close it once they are done. An
// unknown id gets an error matching ErrUnknownNode.
func (l *Locator) RemoveNode(id string) error {
	return l.changeNode("", func(s *locatorState) (*Ring, error) { return s.ring.Without(id) })
}

// ReplaceNode puts n in the place of node old, with old's tokens unless
// n.Tokens is set (see Ring.Replacing), connecting to n, even when n
// reuses old's ID.
func (l *Locator) ReplaceNode(old string, n Node) error {
	return l.changeNode(n.ID, func(s *locatorState) (*Ring, error) { return s.ring.Replacing(old, n) })
}

// SetTable sets the replication of table, adding the table if it is new.
// An empty name or an invalid replication gets a *ConfigError.
func (l *Locator) SetTable(table string, repl consistency.Replication) error {
	if err := checkTable(table, repl); err != nil {
		return err
	}
	return l.changeTables(func(t map[string]consistency.Replication) { t[table] = repl })
}

// RemoveTable removes table; Locate then fails for it with a *TableError.
// Removing an unknown table does nothing.
func (l *Locator) RemoveTable(table string) {
	_ = l.changeTables(func(t map[string]consistency.Replication) { delete(t, table) })
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

func (l *Locator) changeTables(edit func(map[string]consistency.Replication)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.state.Load()
	tables := cloneTables(old.repls)
	edit(tables)
	s, err := l.build(old.ring, old, tables, "")
	if err != nil {
		return err
	}
	l.state.Store(s)
	return nil
}
