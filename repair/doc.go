// Package repair reconciles the versions of a partition that different
// replicas returned, and works out what each stale replica must be sent to
// catch up: the core of read repair, as pure functions with no clock and no
// I/O (the coordinator sends the repairs).
//
// Use it in three steps:
//
//  1. Merge the versions read from the replicas (in any order; Merge is
//     commutative, associative and idempotent). The result is what the read
//     returns; its Visible view at the read's time is what a client sees.
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
//	view := merged.Visible(nowInSec)
//
// A Resolver does steps 1 and 2 in one pass, diffing every version as it
// merges, and reuses its scratch space from read to read; its merge keeps
// the versions' value bytes instead of copies (see Resolve):
//
//	var r repair.Resolver // one per goroutine, or in a sync.Pool
//	merged, diffs, err := r.Resolve(a, b, c)
//	for i, d := range diffs { // diffs[i] == repair.Diff(merged, versions[i])
//		if !d.IsEmpty() {
//			send(i, replica.Mutation{Table: table, Partition: d})
//		}
//	}
//
// The versions are what replicas answered, each already purged at the
// read's time (replica.Command.Respond); Merge itself judges no expiry.
//
// The rules are Apache Cassandra's (4.1/5.0). A cell: the higher timestamp
// wins; on a tie a tombstone or expiring cell beats a live one, a tombstone
// beats an expiring cell, of two of a kind the later local deletion time
// wins, and then the larger value (Reconcile). Row liveness: the higher
// timestamp, then expiring over not, then the later expiry. Deletions of
// every kind (partition, range, row, complex): the higher timestamp, then
// the later local deletion time; a deletion removes everything it covers
// written at or before its timestamp, and a deletion that one at least as
// strong around it covers is dropped (see Merge for a range deletion equal
// to the partition's). Range tombstones merge into one canonical
// list: over each stretch of clustering keys the strongest deletion of any
// version, split where it changes and joined where it does not. Cell
// tombstones stay, so that they reach stale replicas. Unlike Cassandra,
// elements tied on all of that yet different (in TTL, say) still have a
// fixed winner, so the merge never depends on the order of the replies.
//
// Mode names a table's read-repair mode (BLOCKING, NONE or ASYNC), which the
// coordinator honours.
//
// Everything here but a Resolver, Blocks and a DiffRoom is safe for
// concurrent use as long as nobody modifies the partitions passed in.
package repair
