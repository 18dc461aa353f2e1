package replica

import (
	"context"

	"github.com/readpath/readpath/digest"
)

// Endpoint names a replica and says where it lives. ID must be unique in a
// cluster; the coordinator uses Datacenter for DC-local levels and proximity.
// It is a plain value, safe for concurrent use.
type Endpoint struct {
	ID         string
	Datacenter string
	Rack       string
}

// String returns "id (dc/rack)".
func (e Endpoint) String() string {
	return e.ID + " (" + e.Datacenter + "/" + e.Rack + ")"
}

// Replica is one node holding a copy of the data, as the coordinator sees it.
// An embedding storage engine implements it over its own RPC; package
// replicatest implements it in memory. Implementations must be safe for
// concurrent use: the coordinator calls Read and Apply from many goroutines.
//
// Both Read and Apply must honour ctx: when it is cancelled or its deadline
// passes, stop waiting and return ctx.Err() (or an error wrapping it) as soon
// as possible. The coordinator cancels the losers of every hedged read.
//
// A Replica may also implement DigestVersioner and Prober, which are found by
// type assertion, so a wrapper (for metrics or tracing) hides them unless it
// implements them too. MaxDigestVersion forwards faithfully: return the
// wrapped replica's, or digest.Latest if it has none. So does Probe: call the
// wrapped replica's, or return an error matching errors.ErrUnsupported if it
// has none, which a failure detector treats as no Prober (ring's
// ReadmitAfter); or give only wrappers of Probers a wrapper type with Probe.
type Replica interface {
	// Endpoint returns the replica's identity. It must not change.
	Endpoint() Endpoint

	// Read answers cmd from the replica's version of the partition cmd.Key of
	// cmd.Table, exactly as cmd.Respond does: restricted to the command's
	// query, projected to its columns, purged at its read time, limited, and
	// for a digest-only command digested at its digest version; or refused
	// with Respond's *TombstoneOverwhelmingError, returned as it is or
	// wrapped. Call Respond on the stored partition rather than reimplementing
	// it. The purge is the answer's alone: a store must not keep what a read
	// purged, as a read at an earlier time (from a coordinator whose clock is
	// behind, or a Request's NowInSec) must see what was live then. A
	// partition the replica does not hold is not an error: it is read as an
	// empty partition, Partition{Key: cmd.Key}, which is also what
	// repair.Merge merges a first write into (it refuses the zero Partition,
	// whose key differs). The coordinator never modifies an answer, and may
	// hand its memory on in the Result of the read, so an answer may share
	// memory with the stored partition, as Respond's does (its rows and range
	// tombstones capped at their length, so that appending to them copies
	// them); but once returned, it must not be modified or reused by the
	// replica. Nor may Read modify cmd's Columns or its Query's Slices,
	// then or later: the coordinator sends the same ones to every replica
	// of the read and checks their answers against them (TestReplica in
	// replicatest fails a Read that does, while it runs or by the end of
	// the test's run).
	Read(ctx context.Context, cmd Command) (Response, error)

	// Apply merges a mutation into the replica's copy by the reconciliation
	// rules (package repair): a newer write already held must survive it.
	// Read repair sends stale replicas exactly what they lack through Apply.
	// Once Apply returns nil, every later Read must see the mutation: a
	// BLOCKING repair counts the acknowledgement as the replica holding
	// the read's result. Applying the same mutation twice must be harmless. The mutation's
	// partition is shared: the coordinator may send one to several
	// replicas and hands it to its Observer, so Apply must not modify it,
	// then or later (by merging into what it kept of it). The coordinator
	// never modifies it after: a replica may keep it as given if it never
	// writes into what it keeps; unless the coordinator is configured
	// with coordinator.Config.ReuseRepairWrites, under which a BLOCKING
	// repair builds later writes in the memory of one once Apply returns,
	// so that a replica that keeps it must copy it.
	Apply(ctx context.Context, m Mutation) error
}

// Command is a read request for one partition, or the part of it a Query
// selects. Respond computes the answer. A Command is a plain value; sharing
// one between goroutines is safe as long as nobody modifies its Columns or
// its Query's Slices.
type Command struct {
	Table string
	Key   string
	// DigestOnly asks for the digest of the partition instead of its data.
	DigestOnly bool
	// Query selects the rows to read: slices of clustering keys, order and
	// limit. The zero Query reads the whole partition.
	Query Query
	// Columns, if not nil, selects the columns to read (see
	// Partition.Project); nil reads every column, an empty list none
	// (a transport must keep them apart: see the package doc).
	Columns []string
	// NowInSec is the read's time, in seconds since the Unix epoch: every
	// replica of one read judges expiry at it, so that their answers agree
	// (see Partition.Purge). Zero purges nothing.
	NowInSec int64
	// GCBefore is the time, in seconds since the Unix epoch, before which
	// tombstones are purged: NowInSec − the table's gc_grace_seconds. Zero
	// or less purges no tombstone.
	GCBefore int64
	// DigestVersion is the digest encoding the replica must answer (and the
	// coordinator computes) with; 0 means the newest, digest.Latest.
	DigestVersion byte
	// TombstoneFailureThreshold is the most tombstones the read may meet
	// (Cassandra's tombstone_failure_threshold, 100000 by default); past it
	// the replica refuses the read with a *TombstoneOverwhelmingError. 0
	// sets no threshold.
	TombstoneFailureThreshold int
}

// Response is a replica's answer to a Command. A Response is a plain
// value; sharing one between goroutines is safe as long as nobody
// modifies its Partition.
type Response struct {
	// Partition is the data, for a data command. It is empty (no rows, not
	// deleted) when the replica does not hold the partition.
	Partition Partition
	// Digest is the partition's digest at the command's DigestVersion, for a
	// digest-only command. The coordinator ignores it on data responses and
	// digests the data itself.
	Digest digest.Digest
	// Tombstones is how many tombstones the replica's scan met, data or
	// digest, as Command.Respond counts them: for the table's
	// tombstone_warn_threshold.
	Tombstones int
}

// Mutation is an update of one partition of a table. Applying it merges
// Partition into the replica's copy. A Mutation is a plain value; sharing
// one between goroutines is safe as long as nobody modifies its
// Partition.
type Mutation struct {
	Table     string
	Partition Partition
}
