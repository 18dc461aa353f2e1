package replicatest_test

import (
	"time"

	"github.com/readpath/readpath/replica"
)

// Mutants that only the checks of a missing partition's digest, of the
// digest of a column selection and of concurrent writes catch: every other
// check reads partitions written before, whole, or one caller at a time.

// zeroDigestOfMissing answers a digest read of a partition it never held
// with the zero digest (an engine's "not found" carried as no digest),
// where Respond digests the empty partition.
func zeroDigestOfMissing(r *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if _, held := r.data[[2]string{cmd.Table, cmd.Key}]; cmd.DigestOnly && !held {
		return replica.Response{}, nil
	}
	return cmd.Respond(stored)
}

// digestsEveryColumn digests the whole partition for a digest read, its
// column selection dropped (a digest computed from the row's stored
// bytes), while its data reads project: the digest no longer matches the
// data a data read of the same command returns.
func digestsEveryColumn(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.DigestOnly && len(cmd.Columns) > 0 {
		cmd.Columns = nil
	}
	return cmd.Respond(stored)
}

// mergesOutsideItsLock reads what it holds under its lock but merges and
// stores without it, as an engine's read-modify-write without a
// transaction: of two concurrent writes to a partition, the one stored
// first is lost.
func mergesOutsideItsLock(r *mapReplica, k [2]string, held, p replica.Partition) error {
	r.mu.Unlock()
	time.Sleep(time.Millisecond) // the other writers read the same held partition
	r.mu.Lock()
	return mergeInto(r, k, held, p)
}

// copiesWholeReadsOnly answers a read of a whole partition with a copy (a
// row cache hands out copies) and a limited or reversed scan with the
// stored rows themselves (a zero-copy scan): with mergesIntoAnsweredRows,
// a later write changes only the scan's answer its caller holds.
func copiesWholeReadsOnly(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.Query.Limit == 0 && !cmd.Query.Reversed {
		stored = stored.Clone()
	}
	return cmd.Respond(stored)
}
