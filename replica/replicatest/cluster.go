package replicatest

import (
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// Cluster is a set of fake replicas across datacenters and racks, with a
// token ring placing keys on them, a liveness view and a cluster-wide
// slowdown. It is what a coordinator's tests locate replicas with. It is
// safe for concurrent use. Create it, with NewCluster (the zero Cluster is
// not usable), inside the synctest bubble that uses it.
type Cluster struct {
	replicas    []*Replica
	byID        map[string]*Replica
	alive       map[string]*atomic.Bool
	ring        *ring
	replication consistency.Replication
	tables      map[string]bool // nil: every table exists
	slowdown    *factor

	// pins holds the placements Pin set, by partKey: read without a lock,
	// as every Locate reads it, from every core a benchmark reads on.
	pins sync.Map
}

// partKey names a partition: its table and key.
type partKey struct{ table, key string }

// NewCluster builds the cluster cfg describes, every node alive and empty.
// Replica IDs read "dc1-r2-n5": datacenter, rack, node number in its
// datacenter. An invalid cfg gets a *ConfigError.
func NewCluster(cfg ClusterConfig) (*Cluster, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &Cluster{
		byID: map[string]*Replica{}, alive: map[string]*atomic.Bool{}, replication: cfg.Replication,
		slowdown: newFactor(1),
	}
	if err := c.addReplicas(&cfg); err != nil {
		return nil, err
	}
	c.tables = tableSet(cfg.Tables)
	tokens := orDefault(cfg.TokensPerNode, defaultTokensPerNode)
	c.ring = newRing(c.replicas, tokens, cfg.Seed, cfg.Replication)
	return c, nil
}

// tableSet returns the set of tables, or nil (every table) for none.
func tableSet(tables []string) map[string]bool {
	if len(tables) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, t := range tables {
		set[t] = true
	}
	return set
}

// orDefault returns v, or def if v is 0.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// addReplicas creates the nodes of every datacenter, all measuring pause
// windows from the same start.
func (c *Cluster) addReplicas(cfg *ClusterConfig) error {
	start := time.Now()
	for _, dc := range cfg.Datacenters {
		for i := range dc.Nodes {
			ep := dc.endpoint(i)
			// withMember comes after the config's options, so that a WithSeed
			// among them still gives each replica a stream of its own.
			opts := append([]Option{WithSeed(cfg.Seed)}, cfg.Options...)
			opts = append(opts, withMember(len(c.replicas)), withStart(start), withClusterSlowdown(c.slowdown))
			r, err := New(ep, opts...)
			if err != nil {
				return err
			}
			c.replicas = append(c.replicas, r)
			c.byID[ep.ID] = r
			c.alive[ep.ID] = new(atomic.Bool)
			c.alive[ep.ID].Store(true)
		}
	}
	return nil
}

// endpoint names the i-th node (from 0) of dc, placing nodes on racks in
// turn.
func (dc Datacenter) endpoint(i int) replica.Endpoint {
	rack := "r" + strconv.Itoa(i%dc.racks()+1)
	return replica.Endpoint{ID: dc.Name + "-" + rack + "-n" + strconv.Itoa(i+1), Datacenter: dc.Name, Rack: rack}
}

// mix derives the seed of the i-th replica from the cluster's.
func mix(seed uint64, i int) uint64 { return splitmix(seed + uint64(i)*0x9e3779b97f4a7c15) }

// Replicas returns every replica, datacenter by datacenter in the order of
// the config, nodes in number order. The slice is a copy.
func (c *Cluster) Replicas() []*Replica { return slices.Clone(c.replicas) }

// Replica returns the replica with the given ID, or nil.
func (c *Cluster) Replica(id string) *Replica { return c.byID[id] }

// Replication returns the cluster's replication.
func (c *Cluster) Replication() consistency.Replication { return c.replication }

// Stats returns the sum of every replica's Stats.
func (c *Cluster) Stats() Stats {
	var s Stats
	for _, r := range c.replicas {
		s = s.Add(r.Stats())
	}
	return s
}

// SetSlowdown multiplies the service time of every replica by f, on top of
// each replica's own Slowdown; 0 means 1 (no slowdown). Requests in flight
// keep the factor they drew. An f that is negative, NaN or infinite gets a
// *ConfigError and changes nothing.
func (c *Cluster) SetSlowdown(f float64) error {
	if err := (Behavior{Slowdown: f}).Validate(); err != nil {
		return err
	}
	c.slowdown.store(Behavior{Slowdown: f}.factor())
	return nil
}
