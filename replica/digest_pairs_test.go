package replica_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Two replicas' answers to one command digest alike, at every digest
// version, exactly when neither lacks anything of their merge
// (repair.Diff): a mismatch always has something to repair, and a match
// never hides a difference. The pairs are what replicas come to hold: a
// common version with writes of their own merged in, often already
// covered or purgeable at the read's time, or one version and the same
// compacted at an earlier time (expired cells turned into tombstones,
// tombstones past that time's gcBefore dropped).
func TestAnswersDigestAlikeExactlyWhenNeitherLacksAnything(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b, cmd := storedPairGen(t)
		ra, err := cmd.Respond(a)
		require.NoError(t, err)
		rb, err := cmd.Respond(b)
		require.NoError(t, err)
		m, err := repair.Merge(ra.Partition, rb.Partition)
		require.NoError(t, err)
		_, aLacks := repair.Diff(m, ra.Partition)
		_, bLacks := repair.Diff(m, rb.Partition)
		for _, v := range []byte{digest.V1, digest.V2} {
			da, _ := ra.Partition.DigestAt(v)
			db, _ := rb.Partition.DigestAt(v)
			if (da == db) == (aLacks || bLacks) {
				t.Fatalf("version %d: digests alike %v, a lacks %v, b lacks %v for %+v\n stored a %v\n stored b %v\n answer a %v\n answer b %v",
					v, da == db, aLacks, bLacks, cmd, a, b, ra.Partition, rb.Partition)
			}
		}
	})
}

// storedPairGen draws two stored versions of one partition and a command
// reading them, without a tombstone threshold.
func storedPairGen(t *rapid.T) (a, b replica.Partition, cmd replica.Command) {
	common := queryPartitionGen().Draw(t, "common")
	var wideSlices []replica.Slice
	if rapid.Bool().Draw(t, "wide") { // limits that stop early, in answerWindow
		w := widePartitionGen().Draw(t, "wide partition")
		common, wideSlices = w.p, w.slices
	}
	cmd = commandGen(t, common)
	cmd.TombstoneFailureThreshold = 0
	if wideSlices != nil && rapid.Bool().Draw(t, "wide slices") {
		cmd.Query.Slices, cmd.Query.Limit = wideSlices, rapid.IntRange(1, 4).Draw(t, "wide limit")
	}
	a, b = common, common
	if rapid.Bool().Draw(t, "a writes") {
		a = withOwnWrites(t, common, "a")
	}
	switch rapid.IntRange(0, 2).Draw(t, "b") {
	case 1:
		b = withOwnWrites(t, common, "b")
	case 2:
		compacted, err := repair.Merge(a)
		if err != nil {
			t.Fatalf("merge: %v", err)
		}
		at := rapid.Int64Range(0, cmd.NowInSec).Draw(t, "compacted at")
		b = compacted.Purge(at, rapid.Int64Range(0, min(at, cmd.GCBefore)).Draw(t, "its gcBefore"))
	}
	return a, b, cmd
}

// withOwnWrites returns common merged with a version of its own.
func withOwnWrites(t *rapid.T, common replica.Partition, label string) replica.Partition {
	own := partitionGen().Draw(t, label)
	own.Key = common.Key
	p, err := repair.Merge(common, own)
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	return p
}
