// Package repair reconciles the versions of a partition that different
// replicas returned, and works out what each stale replica must be sent to
// catch up: the core of read repair, as pure functions with no clock and no
// I/O (the coordinator sends the repairs).
//
// Use it in three steps:
//
//  1. Merge the versions read from the replicas (in any order; Merge is
//     commutative, associative and idempotent). The result is what the read
//     returns.
//  2. For each replica, Diff(merged, itsVersion) is exactly what it lacks;
//     when Diff reports true, send that partition as a replica.Mutation.
//  3. A replica that applies its diff (merging it into what it holds) then
//     holds merged, and digests equal to it.
//
// In code:
//
//	merged, err := repair.Merge(a, b, c) // err: *VersionsError
//	if err != nil { ... }
//	for _, v := range []replica.Partition{a, b, c} {
//		if d, stale := repair.Diff(merged, v); stale {
//			send(replica.Mutation{Table: table, Partition: d})
//		}
//	}
//
// The cell rule alone is Reconcile. The rules are Apache Cassandra's
// (4.1/5.0): the higher timestamp wins; on a tie a tombstone or expiring cell
// beats a live one, a tombstone beats an expiring cell, of two of a kind the
// later local deletion time wins, and then the larger value. A partition or
// row deletion removes everything written at or before its timestamp; cell
// tombstones are kept so that they reach stale replicas. Unlike Cassandra,
// cells tied on all of that yet different (in TTL, say) still have a fixed
// winner, so the merge never depends on the order of the replies.
//
// Mode names a table's read-repair mode (BLOCKING, NONE or ASYNC), which the
// coordinator honours.
//
// Everything here is safe for concurrent use as long as nobody modifies the
// partitions passed in.
package repair
