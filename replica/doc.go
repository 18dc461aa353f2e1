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
// Command.Respond is everything a replica does to answer a command: purge,
// project the command's columns, and for a digest-only command digest at
// the command's DigestVersion. An adapter's Read calls it on the stored
// partition; replicatest's replicas do, and replicatest.TestReplica checks
// that an adapter answers what Respond gives.
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
// Reconciling versions of a partition is package repair's job; fakes for tests
// are in package replica/replicatest.
package replica
