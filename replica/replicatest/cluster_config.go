package replicatest

import "github.com/readpath/readpath/consistency"

// ClusterConfig describes a fake cluster for NewCluster, which copies what
// it needs: changing a ClusterConfig afterwards changes no cluster. It is
// a plain value, safe for concurrent reads.
type ClusterConfig struct {
	// Datacenters lists the datacenters and their nodes; at least one.
	Datacenters []Datacenter
	// Replication places every table's keys: Simple(rf) walks the ring for
	// rf distinct nodes; NetworkTopology does it per datacenter, preferring
	// distinct racks. It must not need more nodes than a datacenter has.
	Replication consistency.Replication
	// Seed draws the ring's tokens, and each replica's random draws are
	// seeded from it and the replica's place in the config: the same seed
	// gives the same placement, and each replica the same latencies for the
	// same requests (see the package doc).
	Seed uint64
	// TokensPerNode is the number of tokens (virtual nodes) each node owns
	// on the ring; 0 means 16, Cassandra's default num_tokens. At most
	// 1536, Cassandra's limit. The cluster's nodes times its tokens per
	// node may not pass 2,097,152 (131,072 nodes at 16 tokens each, 1365
	// at 1536): the ring holds a placement per token, and one that size
	// takes about 270 MB and seconds to build.
	TokensPerNode int
	// Tables, if not empty, are the only tables the cluster knows: Locate,
	// Seed and Pin fail with ErrUnknownTable for any other. Empty means any
	// table exists.
	Tables []string
	// Options apply to every replica: give all of them a Behavior or
	// workers. A WithSeed among them replaces Seed in the replicas' draws,
	// each still getting its own.
	Options []Option
}

// Datacenter is one datacenter of a ClusterConfig: Nodes nodes spread over
// Racks racks in turn (node 1 in rack 1, node 2 in rack 2, …). Racks 0
// means 1; there may not be more racks than nodes. It is a plain value,
// safe for concurrent use.
type Datacenter struct {
	Name  string
	Racks int
	Nodes int
}

const defaultTokensPerNode = 16

// maxTokensPerNode is the most tokens a node may own: Cassandra's limit on
// num_tokens (DatabaseDescriptor.MAX_NUM_TOKENS). Past it, the ring, which
// holds a placement per token, only costs memory, and math.MaxInt panicked
// making it.
const maxTokensPerNode = 1536

// maxRingTokens is the most tokens a cluster's ring may hold, its nodes
// times its tokens per node. The ring holds a placement per token, about
// 130 bytes and over a microsecond to build each: past this (270 MB), a
// Nodes mistyped or computed wrong ran out of memory, or summed past
// math.MaxInt, where it should have been refused.
const maxRingTokens = 1 << 21

// validate checks c before anything is built.
func (c *ClusterConfig) validate() error {
	if len(c.Datacenters) == 0 {
		return invalid("datacenters", "none")
	}
	switch {
	case c.TokensPerNode < 0:
		return invalid("tokens per node", "%d is negative", c.TokensPerNode)
	case c.TokensPerNode > maxTokensPerNode:
		return invalid("tokens per node", "%d is more than %d", c.TokensPerNode, maxTokensPerNode)
	}
	tokens := orDefault(c.TokensPerNode, defaultTokensPerNode)
	nodes := map[string]int{}
	total := 0
	for _, dc := range c.Datacenters {
		if err := dc.validate(nodes); err != nil {
			return err
		}
		if dc.Nodes > maxRingTokens/tokens-total {
			return invalid("datacenter "+dc.Name, "%d nodes, with %d before it, of %d tokens each: "+
				"the ring would hold more than %d tokens, a placement each", dc.Nodes, total, tokens, maxRingTokens)
		}
		nodes[dc.Name] = dc.Nodes
		total += dc.Nodes
	}
	return c.validateReplication(nodes)
}

func (dc Datacenter) validate(seen map[string]int) error {
	switch _, dup := seen[dc.Name]; {
	case dc.Name == "":
		return invalid("datacenter", "empty name")
	case dup:
		return invalid("datacenter "+dc.Name, "named twice")
	case dc.Nodes <= 0:
		return invalid("datacenter "+dc.Name, "%d nodes", dc.Nodes)
	case dc.Racks < 0 || dc.Racks > dc.Nodes:
		return invalid("datacenter "+dc.Name, "%d racks for %d nodes", dc.Racks, dc.Nodes)
	}
	return nil
}

// validateReplication checks that every replica the replication asks for
// has a node to live on.
func (c *ClusterConfig) validateReplication(nodes map[string]int) error {
	r := c.Replication
	if err := r.Validate(); err != nil {
		return &ConfigError{Setting: "replication", Reason: err.Error(), Err: err}
	}
	if r.IsSimple() {
		return fitsSimple(r, nodes)
	}
	for _, d := range r.Datacenters() {
		switch n, ok := nodes[d.Datacenter]; {
		case !ok:
			return invalid("replication "+r.String(), "unknown datacenter %q", d.Datacenter)
		case d.Factor > n:
			return invalid("replication "+r.String(), "needs %d nodes in %s, it has %d", d.Factor, d.Datacenter, n)
		}
	}
	return nil
}

func fitsSimple(r consistency.Replication, nodes map[string]int) error {
	total := 0
	for _, n := range nodes {
		total += n
	}
	if r.Total() > total {
		return invalid("replication "+r.String(), "needs %d nodes, the cluster has %d", r.Total(), total)
	}
	return nil
}

// racks returns dc's rack count, reading 0 as 1.
func (dc Datacenter) racks() int { return max(dc.Racks, 1) }
