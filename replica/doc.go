// Package replica defines what crosses the boundary between the coordinator
// and a replica: the Replica interface an embedding storage engine
// implements, the Command, Response and Mutation it exchanges, and the data
// model of a partition, with what a replica does to it to answer a read.
//
// # The data model
//
// The model is Cassandra's (4.1/5.0). A Partition is everything stored under
// one partition key:
//
//   - an optional partition deletion (Deletion): everything in the
//     partition written at or before its timestamp is gone;
//   - the static row (Static): cells shared by every row of the partition;
//   - range tombstones (RangeTombstone), ordered and not overlapping: each
//     deletes the rows of a range of clustering keys, between two Bounds
//     inclusive, exclusive or open (StartAt, StartAfter, EndAt, EndBefore,
//     Bottom, Top);
//   - rows, ordered by clustering key. A Row has an optional primary-key
//     Liveness (the INSERT that created it: a row with live liveness exists
//     even with no live cell), an optional row deletion, complex deletions
//     (ComplexDeletion: each deletes one collection column's cells up to a
//     timestamp) and cells;
//   - a Cell is one value of a column, or with a Path one element of a
//     complex column (a map key, a set element, a list item, a user-type
//     field), with a write timestamp in microseconds. It may expire (TTL,
//     and its expiry in LocalDeletionTime) or be a tombstone (deleted at
//     Timestamp, made at LocalDeletionTime).
//
// Partition keys, clustering keys, column names and paths are strings of
// arbitrary bytes, ordered as unsigned bytes; times are 64-bit (no 2038 or
// 2106 limit). Validate checks every invariant the rest of readpath relies
// on; Merge in package repair is how versions of a partition combine, and it
// returns them canonical. Counters are out of scope: a counter's value adds
// up shards, and readpath would reconcile it by timestamp like any value.
//
//	p := replica.NewPartition("user:42",
//		replica.NewRow("2024-01-02",
//			replica.Live("visits", "5", 1700000000000000),                  // µs
//			replica.Live("tags", "", 1700000000000000).WithPath("mobile"),   // a set element
//			replica.Expiring("token", "x", 1700000000000000, 60, 1700000060), // TTL 60 s
//		).WithLiveness(replica.Inserted(1700000000000000)),
//	).WithStatic(replica.Live("plan", "free", 1690000000000000)).
//		WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore("2024-01-02"),
//			replica.DeletedAt(1699990000000000, 1699990000))) // DELETE ... WHERE day < '2024-01-02'
//	if err := p.Validate(); err != nil { ... }
//
// # Read time
//
// Every read has one time, Command.NowInSec, and a GCBefore (NowInSec minus
// the table's gc_grace_seconds), carried in every Command of the read, so
// that all replicas judge expiry at the same instant and their digests
// agree. Before it answers, data or digest, a replica purges its partition
// at that time (Partition.Purge, Cassandra's read-time purge): expired
// cells become tombstones, tombstones of every kind older than GCBefore go
// with what they deleted, and expired row liveness goes once its expiry is
// older than GCBefore. Zero times purge nothing.
//
// Command.Respond is everything a replica does to answer a command:
// restrict the partition to the command's Query, project its columns,
// purge, count tombstones, apply the limit, and for a digest-only command
// digest at its DigestVersion. An adapter's Read calls it on the stored
// partition; replicatest's replicas do, and replicatest.TestReplica checks
// that an adapter answers what Respond gives.
//
// # Queries
//
// A Query says which part of a partition a read wants (Cassandra's
// ClusteringIndexSliceFilter and DataLimits):
//
//   - Slices: ranges of clustering keys, each a Slice from a start Bound to
//     an end Bound (inclusive, exclusive or open), ordered and not
//     overlapping. Nil reads every row; a non-nil empty list reads none.
//     NormalizeSlices sorts, drops empty ones and joins overlapping ones.
//   - Reversed: rows in descending clustering order, for the limit. An
//     answer's rows are in ascending order whatever the query's.
//   - Limit: the most live rows to return, per partition; 0 for all.
//
// Counting. A row counts when a client would see it (Partition.Visible): a
// cell holds a value at NowInSec that no deletion covers, or its primary
// key liveness is live and not deleted. Deleted, expired and shadowed rows
// do not count, nor does the static row, except that a partition with no
// such row but live static cells counts as one row to a query with no
// clustering restriction (Query.SelectsAllRows: nil Slices or the one
// slice AllRows; a slice from StartAt("") restricts, as CQL's ck >= "" on
// a column whose empty value is a real one), as CQL then shows it.
// LiveRows counts.
// Column selection counts through the data: Project drops a row whose live
// cells are all in unselected columns, so it does not count, where
// Cassandra, which reads every column to decide whether a row exists,
// would count it and return it with nulls.
//
// What an answer covers. Respond keeps the rows in the query's slices, the
// range tombstones clipped to them, and the partition deletion and static
// row (Partition.Restrict, which is also what repair may write back for a
// read). With a limit it stops after the Limit-th live row in the query's
// order: rows after it are dropped and a range tombstone open there is
// closed at that row, inclusive (Cassandra's RTBoundCloser), so the answer
// covers exactly its slices from their start, in the query's order, up to
// that row. Partition.Limit cuts a merged result the same way and reports
// whether the limit was reached; Partition.LastClustering is the row where
// a limited answer ends, and Query.After that row is the query of what
// comes next: the continuation that short-read protection asks the same
// replica for, or the next page.
//
// Paging. A PagingState records where a page ended and a fingerprint of
// the read (table, key, slices, order, limit, columns). NewPagingState
// makes one from the page's LastClustering; MarshalBinary gives the opaque,
// versioned and checksummed bytes a client hands back; Resume turns them
// into the next page's query, and refuses a state made for another read. A
// state only narrows the query it resumes, so even a forged one reads
// nothing outside that query.
//
// Tombstone thresholds. Respond counts the tombstones its scan meets, as
// Cassandra's ReadCommand counts them (see Respond), into
// Response.Tombstones, for the coordinator's tombstone_warn_threshold. A
// read whose count exceeds Command.TombstoneFailureThreshold stops there
// and fails with a *TombstoneOverwhelmingError (ErrTombstoneOverwhelming),
// which an adapter must return as it is or wrapped.
//
// # What a client sees
//
// Partition.Visible gives the View a client reading a reconciled partition
// at NowInSec sees: live cells only, with what is expired, deleted or
// shadowed gone; rows that exist (a live cell, or live liveness); a
// partition holding only static data shows as one row of no clustering, and
// a partition deletion removes the static row too.
//
// # Digests
//
// Digest gives what a replica answers to a digest-only read: the hash of a
// canonical, versioned encoding that package digest specifies. DigestAt
// digests at an older version, as a cluster in the middle of a rolling
// upgrade needs; an adapter reports the versions its node knows through
// DigestVersioner, and DigestVersionFor picks the one a read asks for.
//
// # Over a wire
//
// Every type a Replica exchanges is plain exported fields, but a transport
// must keep what its encoding may lose. A nil and an empty list mean
// different things in Query.Slices (every row, no row) and Command.Columns
// (every column, none): gob omits an empty list and a protobuf repeated
// field cannot tell the two apart, so carry a flag beside them. Keys,
// clustering keys, column names and paths are arbitrary bytes, not UTF-8
// (protobuf bytes, not string); the types' own JSON keeps them, writing one
// that is not UTF-8 as {"base64": "..."}, and keeps nil and empty lists
// apart. Map a replica's errors back to the typed ones: the context's (the
// coordinator tells a cancelled loser from a timeout by them), ErrOverloaded
// for a request refused unrun, ErrConnectionFailed (a failure detector
// convicts on it), *TombstoneOverwhelmingError with its fields (it fails the
// read), and *CommandError, wrapping a *digest.VersionError for a digest
// version the node does not know. replicatest.TestReplica, run against the
// client side, checks the lists, the keys and the tombstone error. Send the
// time a request has left, as gRPC's timeout does, not less: a context error
// a replica returns before the read's deadline is its own failure, which
// fails the read at once when the level cannot be met without it, where the
// coordinator's own deadline makes it a timeout.
//
// Reconciling versions of a partition is package repair's job; fakes for tests
// are in package replica/replicatest.
package replica
