package replicatest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// versions returns two versions of partition key that neither contains
// the other: the newer deletes the partition at a timestamp that removes
// one older row (r0), overwrites a cell, deletes a column and a row, and
// adds a row, so a replica that replaces instead of merging, or that drops
// a partition deletion, is caught. The older deletes the partition and a
// row too, before the newer's deletions of them, so a replica that keeps
// the last deletion written rather than the newest is caught. Two cells
// tie on their timestamp, where the older version's larger value and the
// newer's tombstone win, so a replica that lets the last write win a tie
// reads unlike the merge in one order or the other.
func versions(key string) (older, newer replica.Partition) {
	older = replica.NewPartition(key,
		replica.NewRow("r1", replica.Live("a", "1", 10), replica.Live("b", "old", 10), replica.Live("d", "gone", 10),
			replica.Live("t", "2-larger", 30), replica.Live("u", "deleted", 30)),
		replica.NewRow("r2", replica.Live("c", "x", 10)).WithDeletion(replica.DeletedAt(8, 90)),
		replica.NewRow("r0", replica.Live("z", "before the deletion", 4)),
	).WithDeletion(replica.DeletedAt(3, 90))
	newer = replica.NewPartition(key,
		replica.NewRow("r1", replica.Live("b", "new", 20), replica.Tombstone("d", 20, 100),
			replica.Live("t", "1-smaller", 30), replica.Tombstone("u", 30, 100)),
		replica.NewRow("r2").WithDeletion(replica.DeletedAt(15, 100)),
		replica.NewRow("r3", replica.Live("e", "y", 20)),
	).WithDeletion(replica.DeletedAt(5, 100))
	return older, newer
}

// askedVersion is the digest version the checks that are not about digest
// versions ask r for: 0, the newest, of a replica that answers every
// version; of a replica.DigestVersioner below digest.Latest, its
// MaxDigestVersion, as a coordinator never asks it for a newer one (see
// replica.DigestVersionFor).
func askedVersion(t *testing.T, r replica.Replica) byte {
	if v := maxDigestVersion(t, r); v < digest.Latest {
		return v
	}
	return 0
}

// maxDigestVersion returns replica.DigestVersionFor(r), called as every
// call to the replica is (see call); digest.Latest if the call panicked
// or hung, which call has reported.
func maxDigestVersion(t *testing.T, r replica.Replica) byte {
	v, err := call(t, "MaxDigestVersion", func(context.Context) (byte, error) { return replica.DigestVersionFor(r), nil })
	if err != nil {
		return digest.Latest
	}
	return v
}

// call runs f under a context bounded by callTimeout, on a goroutine of
// its own (see run); what names the call in a failure. A call that fails
// once callTimeout has passed fails the check, which makes no more calls:
// a replica that honours its context but answers nothing (a node never
// reached) fails each check in one timeout, not in one per call, hundreds.
func call[T any](t *testing.T, what string, f func(ctx context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(t.Context(), callTimeout)
	defer cancel()
	v, err := run(t, ctx.Done(), what, func() (T, error) { return f(ctx) })
	if err != nil && !errors.Is(err, errAbandoned) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("%s did not answer within %v (it failed with %v); the check makes no more calls", what, callTimeout, err)
		abandon(t)
		return v, errAbandoned
	}
	return v, err
}

// apply applies a deep copy of p, so that p, from which the check computes
// what it expects, stays as written whatever the replica does with its
// input; and the replica must leave that copy as it was given.
func apply(t *testing.T, r replica.Replica, p replica.Partition) {
	given := p.Clone()
	if err := applyErr(t, r, conformanceTable, given); err != nil {
		t.Errorf("Apply of %q: %v", p.Key, err)
	}
	expectUnchanged(t, "Apply", p, given)
}

// applyErr applies p to table under a bounded context.
func applyErr(t *testing.T, r replica.Replica, table string, p replica.Partition) error {
	_, err := call(t, fmt.Sprintf("Apply of %q", p.Key), func(ctx context.Context) (struct{}, error) {
		return struct{}{}, r.Apply(ctx, replica.Mutation{Table: table, Partition: p})
	})
	return err
}

// expectUnchanged checks that the partition given to Apply still equals
// written, the partition it is a copy of, after when.
func expectUnchanged(t *testing.T, when string, written, given replica.Partition) {
	if !given.Equal(written) {
		t.Errorf("after %s, the partition given to Apply of %q changed: Apply must not modify its input, during the call or later\n got %+v\nwant %+v",
			when, written.Key, given, written)
	}
}

func readResponse(t *testing.T, r replica.Replica, cmd replica.Command) (replica.Response, error) {
	l := sending(t, cmd)
	resp, err := call(t, describe(cmd), func(ctx context.Context) (replica.Response, error) { return r.Read(ctx, cmd) })
	if l != nil {
		l.verify(t, "after "+describe(cmd)+" returned")
	}
	return resp, err
}

// describe names a read in a failure: `digest Read of "k"` or `data Read
// of "k"`, so that a digest is not mistaken for data.
func describe(cmd replica.Command) string {
	if cmd.DigestOnly {
		return fmt.Sprintf("digest Read of %q", cmd.Key)
	}
	return fmt.Sprintf("data Read of %q", cmd.Key)
}

// readData returns the partition of a data read, and false after
// reporting an error.
func readData(t *testing.T, r replica.Replica, cmd replica.Command) (replica.Partition, bool) {
	resp, err := readResponse(t, r, cmd)
	if err != nil {
		t.Errorf("data read of %q: %v", cmd.Key, err)
	}
	return resp.Partition, err == nil
}

// readDigest returns the digest of a digest-only read, and false after
// reporting an error.
func readDigest(t *testing.T, r replica.Replica, cmd replica.Command) (digest.Digest, bool) {
	cmd.DigestOnly = true
	resp, err := readResponse(t, r, cmd)
	if err != nil {
		t.Errorf("digest read of %q: %v", cmd.Key, err)
	}
	return resp.Digest, err == nil
}

func expectData(t *testing.T, r replica.Replica, cmd replica.Command, want replica.Partition) {
	if got, ok := readData(t, r, cmd); ok && !got.Equal(want) {
		t.Errorf("data read of %q (table %q, columns %q)\n got %+v\nwant %+v", cmd.Key, cmd.Table, cmd.Columns, got, want)
	}
}
