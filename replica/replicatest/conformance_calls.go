package replicatest

import (
	"context"
	"testing"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// versions returns two versions of partition key that neither contains
// the other: the newer overwrites a cell, deletes a column and a row, and
// adds a row, so a replica that replaces instead of merging is caught.
func versions(key string) (older, newer replica.Partition) {
	older = replica.NewPartition(key,
		replica.NewRow("r1", replica.Live("a", "1", 10), replica.Live("b", "old", 10), replica.Live("d", "gone", 10)),
		replica.NewRow("r2", replica.Live("c", "x", 10)),
	)
	newer = replica.NewPartition(key,
		replica.NewRow("r1", replica.Live("b", "new", 20), replica.Tombstone("d", 20, 100)),
		replica.NewRow("r2").WithDeletion(replica.DeletedAt(15, 100)),
		replica.NewRow("r3", replica.Live("e", "y", 20)),
	)
	return older, newer
}

// askedVersion is the digest version the checks that are not about digest
// versions ask r for: 0, the newest, of a replica that answers every
// version; of a replica.DigestVersioner below digest.Latest, its
// MaxDigestVersion, as a coordinator never asks it for a newer one (see
// replica.DigestVersionFor).
func askedVersion(r replica.Replica) byte {
	if v := replica.DigestVersionFor(r); v < digest.Latest {
		return v
	}
	return 0
}

// call runs f under a context bounded by callTimeout.
func call(t *testing.T, f func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(t.Context(), callTimeout)
	defer cancel()
	return f(ctx)
}

func apply(t *testing.T, r replica.Replica, p replica.Partition) {
	err := call(t, func(ctx context.Context) error {
		return r.Apply(ctx, replica.Mutation{Table: conformanceTable, Partition: p})
	})
	if err != nil {
		t.Errorf("Apply of %q: %v", p.Key, err)
	}
}

func readResponse(t *testing.T, r replica.Replica, cmd replica.Command) (resp replica.Response, err error) {
	err = call(t, func(ctx context.Context) error {
		resp, err = r.Read(ctx, cmd)
		return err
	})
	return resp, err
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
