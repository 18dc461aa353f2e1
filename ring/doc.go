// Package ring is the cluster kit of a readpath coordinator: Cassandra's
// Murmur3 token ring and replica placement, a coordinator.Locator over it,
// and a failure detector that is a coordinator.Liveness. It uses only the
// standard library and packages consistency and replica.
//
// # Tokens
//
// Murmur3Token gives a partition key the token Cassandra's
// Murmur3Partitioner gives it, bit for bit (h1 of MurmurHash3_x64_128 with
// seed 0, Cassandra's sign-extended tail bytes, math.MinInt64 mapped to
// MaxToken, the empty key at MinToken). Cassandra hashes the serialized
// partition key, so a coordinator.Request's Key must hold those bytes for
// the ring to agree with a Cassandra cluster or driver:
//
//   - a partition key of one column is the column's value in its CQL
//     binary encoding: a text's UTF-8 bytes, an int's 4 big-endian bytes, a
//     bigint's 8, a uuid's 16;
//   - a partition key of several columns is their CompositeKey encoding:
//     for each, a 2-byte big-endian length, the bytes, and a 0 byte.
//
// A store that never talks to Cassandra may use any bytes as keys: the
// ring only needs them stable.
//
// # Building a ring
//
// A Node is an ID, a datacenter, a rack and the tokens it holds; New checks
// them (no duplicate ID or token, every node with a token) and returns an
// immutable *Ring. A node owns the ranges (previous token, its token]; a
// key belongs to the first token at or after its own, wrapping past the
// largest. New nodes need tokens: RandomTokens draws them as Cassandra does
// without allocate_tokens_for_local_replication_factor. This package does
// not implement that replication-aware allocator. Random tokens balance
// poorly when nodes hold few of them; measured over 50 rings per row (RF
// 3, effective ownership relative to the ideal RF/nodes, see
// testdata/random_imbalance.txt):
//
//	nodes  tokens  largest share (mean / worst)  smallest share (mean)
//	    6      16          1.19 / 1.37                 0.83
//	   12      16          1.24 / 1.45                 0.78
//	   24      16          1.30 / 1.61                 0.73
//	    6     256          1.05 / 1.13                 0.95
//	   12     256          1.06 / 1.09                 0.94
//	   24     256          1.07 / 1.12                 0.93
//
// With 16 random tokens the busiest of 24 nodes holds on average 30 %
// more than its share, and up to 61 % more; use 256 tokens per node (1.07),
// or compute balanced tokens elsewhere and pass them in Node.Tokens.
// Ownership reports a ring's effective ownership, as nodetool status does.
//
// # Placement
//
// ReplicasFor(token, repl) places replicas as Cassandra 4.1 does. Under
// consistency.Simple (SimpleStrategy) they are the first rf distinct
// nodes clockwise from the token. Under consistency.NetworkTopology
// (NetworkTopologyStrategy.calculateNaturalReplicas) the walk fills each
// datacenter at once: a node on a rack that holds none of the datacenter's
// replicas yet is taken; a node on a rack already used is taken only while
// the datacenter's allowance of rack repeats (its factor minus its number
// of racks) lasts; a datacenter with fewer nodes than its factor gives all
// of them, one the ring does not know gives none. Replicas come in the
// order the walk takes them, the primary first. The Java driver and
// Cassandra before 3.0 order repeats differently (they append them once
// every rack was seen): same primary, same set.
//
// # The Locator
//
// A Locator is what coordinator.Config.Locator needs. NewLocator takes the
// nodes, a replication per table, and Connect, which turns a Node into the
// replica.Replica the coordinator reads through (your RPC client). The
// replicas of every token range are computed once per distinct replication,
// so Locate is a hash, a binary search and a map lookup: it takes no lock
// and allocates nothing. AddNode, RemoveNode and ReplaceNode (a new node
// taking over a dead one's tokens, as replace_address does) and SetTable
// build the new placements aside and swap them in atomically: reads in
// flight keep the version they started with. Only new nodes are connected
// (a replacement is, even under the ID of the node it replaces);
// a removed or replaced node's replica is not closed for you, nor are the
// connections a NewLocator or a change that failed had made (it stops at
// the first Connect that fails): a Connect that dials should keep what it
// opens where it can close it. A change places again only
// the ranges whose placement it can alter (every range when it changes a
// datacenter's node or rack count against its factor), and SetTable only
// the replication it adds. A change still copies the ring's token and range
// lists, so it costs in proportion to the ring's size: give NewLocator every
// node known at start rather than adding them one by one.
//
// AddNode and ReplaceNode make a node a read replica at once: call them
// once it holds its data. Cassandra reads from a joining or replacing node
// only once its bootstrap (streaming) has finished; until then it is a
// write target only (a pending range), which the read path does not model.
// NewLocator and SetTable refuse a replication that places replicas in a
// datacenter with no node in the ring, as Cassandra 4.0 and later refuse
// one naming an unknown datacenter (*DatacenterError); RemoveNode may
// still remove a datacenter's last node.
//
// # Failure detection
//
// A Detector is what coordinator.Config.Liveness needs, and a
// replica.OutcomeReporter for the coordinator's outcomes. It convicts a
// node on either of two kinds of evidence and readmits it when that
// evidence is gone; IsAlive is one map lookup and one atomic load.
//
// Heartbeats. If your cluster gossips, report each node's heartbeats with
// Heartbeat(id, at). The detector computes phi as Cassandra's
// FailureDetector does: phi = (time since the last heartbeat) / (mean
// interval * ln 10), over a window of the last 1000 intervals, the first
// heartbeat counting as an InitialInterval (2 s) and intervals above
// MaxInterval (2 s) not learnt. Phi is evaluated every CheckInterval (1 s),
// and a node is convicted when it exceeds 8: after 8 * ln 10 ≈ 18.4 mean
// intervals of silence (about 18 s with heartbeats every second, the
// initial interval raising the mean at first, and up to a CheckInterval
// more: 20 s after the last of twenty heartbeats a second apart), or - in
// the exponential model behind phi - when the chance that the node is
// merely late has fallen below 1e-8. Its next heartbeat readmits it. When
// the detector's own checks were more than MaxLocalPause (5 s) apart - its
// process or VM stalled - phi convicts no one for the next 5 s, as
// Cassandra's max_local_pause_in_ms: the heartbeats that queued during the
// stall are reported before silence is judged, rather than every node being
// convicted at once.
//
// The coordinator's own outcomes. Without gossip, the detector learns from
// the reads: give it to the coordinator as its outcome reporter
// (coordinator.Config.Outcomes) as well as its Liveness (a Liveness that
// is one is the outcome reporter when Outcomes is nil). A connection
// failure (replica.IsConnectionFailure: refused, reset, unreachable)
// convicts the replica at once, as gocql marks a host down (set
// ConnectionFailures for more; a success in between starts the count
// again). A request the coordinator cut short is told with its
// context's error, whatever its adapter returned, so it never convicts.
// Timeouts and every other error never convict: a slow replica
// keeps its place and the snitch ranks it down, so a slow cluster does not
// turn into an unavailable one. A convicted replica whose Replica is a
// replica.Prober is probed after 1 s, 2 s, 4 s... up to 60 s, less up to
// 20 % jitter, each probe bounded by ProbeTimeout, until one answers; a
// replica without Prober is readmitted after ReadmitAfter (5 s) and
// convicted again by its next failure if it is still down. Probes run on
// the detector's goroutines, never on a read; a probe that panics fails,
// and one that ignores its context is abandoned to its replica at
// ProbeTimeout, so a misbehaving Prober holds up neither the detector nor
// Close (four abandoned probes of a connection still running stop its
// probes until one returns, so that it holds no more goroutines; eight of
// a node's, whatever its connections, stop them too, but for one probe of
// a connection with none of its own, so that a healthy replacement is
// probed; they count until they return, across Forget). Set
// DetectorConfig.Replicas to Locator.Replica: probes then go through the
// node's current connection, so that a node replaced under the same ID, or
// removed and added again, is readmitted through its new connection (looked
// for every CheckInterval, the backoff starting again) rather than probed
// through the dead one for good.
//
// OnChange hears every transition (down, up, and why) in order, from the
// detector's goroutine. Forget(id) drops a node that left the ring: its
// heartbeats, conviction and probes. Close stops its goroutines.
//
// # Wiring
//
//	loc, err := ring.NewLocator(ring.LocatorConfig{
//		Nodes:   nodes, // from your cluster metadata
//		Tables:  map[string]consistency.Replication{"users": consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})},
//		Connect: func(n ring.Node) (replica.Replica, error) { return myrpc.Dial(n) },
//	})
//	det, err := ring.NewDetector(ring.DetectorConfig{Replicas: loc.Replica})
//	defer det.Close()
//	c, err := coordinator.New(coordinator.Config{
//		Locator:         loc,
//		Liveness:        det,
//		Outcomes:        det,
//		LocalDatacenter: "dc1",
//	})
//	// gossip, if you have it: det.Heartbeat(nodeID, time.Now())
//	// topology changes:       loc.AddNode(n), loc.RemoveNode(id), loc.ReplaceNode(old, n),
//	//                         adding or replacing a node once it holds its data
//	// a node gone for good:   det.Forget(id) and c.ForgetReplica(id), once the reads in flight to it are done
//	// an ID back in the ring: det.Forget(id) and c.ForgetReplica(id), for a fresh start at once
//
// Ring, Locator and Detector are safe for concurrent use; ArrivalWindow is
// a plain value for one goroutine.
package ring
