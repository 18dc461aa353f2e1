package replicatest

import (
	"fmt"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// Locate returns the replicas of key in table, in ring order (or in the
// order given to Pin), and the cluster's replication: what a coordinator's
// locator asks for. The slice is shared by every caller, who must not
// modify it: like a real locator's cache of each token range's replicas,
// it makes Locate allocate nothing. A table outside ClusterConfig.Tables
// gets an error wrapping ErrUnknownTable.
func (c *Cluster) Locate(table, key string) ([]replica.Replica, consistency.Replication, error) {
	if err := c.knowTable(table); err != nil {
		return nil, consistency.Replication{}, err
	}
	return c.owners(table, key).replicas, c.replication, nil
}

// owners returns the replicas of (table, key): pinned, or from the ring.
func (c *Cluster) owners(table, key string) placement {
	if pinned, ok := c.pins.Load(partKey{table, key}); ok {
		return pinned.(placement)
	}
	return c.ring.locate(key)
}

func (c *Cluster) knowTable(table string) error {
	if c.tables != nil && !c.tables[table] {
		return fmt.Errorf("%w %q", ErrUnknownTable, table)
	}
	return nil
}

// Pin overrides the placement of (table, key): its replicas become the
// replicas ids, in that order, on any racks, as many as the replication
// places: at most its total factor, and under NetworkTopology at most each
// datacenter's factor there (a coordinator refuses more in its local
// datacenter, and in any at a level that is not DC-local: see
// coordinator.Locator). It fails with an error wrapping
// ErrUnknownReplica or ErrUnknownTable, or a *ConfigError for no, too many
// or repeated ids, and then changes nothing.
func (c *Cluster) Pin(table, key string, ids ...string) error {
	rs, err := c.lookup(table, ids)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return invalid("pin of "+key, "no replicas")
	}
	if n := c.replication.Total(); len(rs) > n {
		return invalid("pin of "+key, "%d replicas for a replication of %d", len(rs), n)
	}
	if !c.replication.IsSimple() {
		in := map[string]int{}
		for _, r := range rs {
			dc := r.Endpoint().Datacenter
			if in[dc]++; in[dc] > c.replication.Factor(dc) {
				return invalid("pin of "+key, "more than %d replicas in %s, its factor", c.replication.Factor(dc), dc)
			}
		}
	}
	c.pins.Store(partKey{table, key}, newPlacement(rs))
	return nil
}

// Unpin gives (table, key) back to the ring.
func (c *Cluster) Unpin(table, key string) {
	c.pins.Delete(partKey{table, key})
}

// lookup returns the replicas ids of a known table, each at most once.
func (c *Cluster) lookup(table string, ids []string) ([]*Replica, error) {
	if err := c.knowTable(table); err != nil {
		return nil, err
	}
	rs := make([]*Replica, len(ids))
	for i, id := range ids {
		if rs[i] = c.byID[id]; rs[i] == nil {
			return nil, unknownReplica(id)
		}
		for _, prev := range ids[:i] {
			if prev == id {
				return nil, invalid("replica list", "%q repeated", id)
			}
		}
	}
	return rs, nil
}

// Seed gives every replica of p.Key in table (see Locate) a copy of p. An
// invalid p or an unknown table gets an error and changes nothing.
func (c *Cluster) Seed(table string, p replica.Partition) error {
	if err := c.knowTable(table); err != nil {
		return err
	}
	return seedAll(c.owners(table, p.Key).nodes, table, p)
}

// SeedOn gives a copy of p to the replicas ids only, whether or not they
// are replicas of p.Key: after Seed, SeedOn of an older version makes some
// replicas stale in one call. Errors are Seed's, and Pin's for an unknown
// or repeated id; no ids is not one: it seeds nothing. On error nothing
// changes.
func (c *Cluster) SeedOn(table string, p replica.Partition, ids ...string) error {
	rs, err := c.lookup(table, ids)
	if err != nil {
		return err
	}
	return seedAll(rs, table, p)
}

func seedAll(rs []*Replica, table string, p replica.Partition) error {
	if err := p.Validate(); err != nil {
		return err
	}
	for _, r := range rs {
		r.data.put(table, p)
	}
	return nil
}
