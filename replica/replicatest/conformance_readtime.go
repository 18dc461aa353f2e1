package replicatest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// rich returns two versions of partition key holding every element of the
// model: a static row, range tombstones, row liveness (one expiring), a
// complex column with a complex deletion, expiring cells and tombstones,
// timed so that the read times of readTimes(base) purge different parts of
// them. Every deletion time and expiry is base seconds later.
func rich(key string, base int64) (older, newer replica.Partition) {
	at := func(s int64) int64 { return base + s }
	older = replica.NewPartition(key,
		replica.NewRow("a", replica.Live("x", "1", 10), replica.Expiring("y", "soon", 10, 100, at(300))).WithLiveness(replica.Inserted(10)),
		replica.NewRow("c", replica.Live("x", "2", 10)),
		replica.NewRow("e").WithLiveness(replica.InsertedWithTTL(10, 50, at(250))),
	).WithStatic(replica.Live("plan", "free", 10), replica.Live("tags", "", 10).WithPath("a")).
		WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("b"), replica.EndBefore("d"), replica.DeletedAt(12, at(200))))
	newer = replica.NewPartition(key,
		replica.NewRow("a", replica.Live("m", "v", 20).WithPath("k1"), replica.Tombstone("z", 20, at(400))).
			WithComplexDeletion("m", replica.DeletedAt(19, at(180))),
		replica.NewRow("d", replica.Live("x", "3", 20), replica.Expiring("m", "w", 20, 10, at(170)).WithPath("k2")),
	).WithStatic(replica.Tombstone("plan", 20, at(150))).
		WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("d"), replica.Top(), replica.DeletedAt(5, at(100))))
	return older, newer
}

// timeBases are the offsets the read-time check shifts rich's times by:
// none, and past 2106, where a store that keeps deletion times and expiries
// in 32 bits, signed (until 2038, as Cassandra 4.1) or not (until 2106, as
// 5.0), wraps them. Times are 64-bit.
var timeBases = []int64{0, 1<<32 + 1<<20}

// readTimes returns the (nowInSec, gcBefore) pairs the read-time checks
// read rich(key, base) at: none, then later and later, each purging more.
func readTimes(base int64) [][2]int64 {
	// 299: a second before an expiry, which a store expiring cells at
	// nowInSec+1 takes as past. gcBefore 160, 200 and 250: the local
	// deletion times of a tombstone and a range tombstone, and the expiry
	// of a row liveness, which a store purging at gcBefore rather than
	// before it drops.
	times := [][2]int64{{0, 0}, {170, 101}, {260, 160}, {299, 190}, {310, 200}, {500, 250}, {500, 450}}
	for i := 1; i < len(times); i++ {
		times[i][0] += base
		times[i][1] += base
	}
	return times
}

// checkReadTime writes rich data and reads it at several read times, column
// selections and digest versions: every answer, data, digest and
// tombstone count, must be what Respond gives for the merge of what was
// written. Some read times purge some of the tombstones (see
// TestReadTimesPurgeSomeTombstones), which must not be counted. The times
// go forward, then back, with the last read time read again at an earlier
// gcBefore on the way: coordinators' clocks differ, and a store that kept
// what a read purged, or cached answers by read time alone, answers an
// earlier read from a later one. A read time within gc_grace_seconds of
// the epoch, with a gcBefore of 0 or less, purges no tombstone (see
// checkNoGCBefore).
func checkReadTime(t *testing.T, r replica.Replica) {
	checkNoGCBefore(t, r)
	checkExpirySeconds(t, r)
	checkGCBeforeSeconds(t, r)
	for _, base := range timeBases {
		key := fmt.Sprint("k", base)
		older, newer := rich(key, base)
		apply(t, r, older)
		apply(t, r, newer)
		stored, _ := repair.Merge(older, newer)
		times := readTimes(base)
		last := times[len(times)-1]
		back := append([][2]int64{{last[0], times[1][1]}}, times...)
		slices.Reverse(back)
		for i, at := range append(times, back...) {
			ok := true
			for _, cols := range [][]string{nil, {"x", "m"}} {
				cmd := replica.Command{Table: conformanceTable, Key: key, NowInSec: at[0], GCBefore: at[1], Columns: cols}
				ok = expectAnswer(t, r, cmd, stored) && ok
			}
			if ok {
				continue
			}
			// One read's answers are enough to go on: the next time base.
			if i >= len(times) && slices.Contains(times, at) { // and it was right on the way forward
				t.Errorf("the reads above, at %d (gcBefore %d), were right before reads at later times: "+
					"a store must not keep what a read purged, nor cache answers by read time alone", at[0], at[1])
			}
			break
		}
	}
}

// checkNoGCBefore reads rich data, on a key of its own, at a read time
// with a gcBefore of 0 and one below 0, which purge no tombstone
// (replica.Command): the coordinator's gcBefore is its read time less
// gc_grace_seconds, below 0 for any Request.NowInSec under 864000 under the
// default grace. A store that compares a negative gcBefore unsigned, or
// takes 0 for one not set, purges tombstones there.
func checkNoGCBefore(t *testing.T, r replica.Replica) {
	older, newer := rich("no gcBefore", 0)
	apply(t, r, older)
	apply(t, r, newer)
	stored, _ := repair.Merge(older, newer)
	const now = 260
	for _, gcBefore := range []int64{0, now - 864000} {
		for _, cols := range [][]string{nil, {"x", "m"}} {
			cmd := replica.Command{Table: conformanceTable, Key: stored.Key, NowInSec: now, GCBefore: gcBefore, Columns: cols}
			if !expectAnswer(t, r, cmd, stored) {
				t.Errorf("a gcBefore of %d purges no tombstone: Command.GCBefore of 0 or less, as the coordinator sends for a read time within gc_grace_seconds of the epoch", gcBefore)
				return
			}
		}
	}
}

// checkExpirySeconds reads rich data, with an expiring static cell of its
// own, on keys of their own, at each second something in it expires and
// the second before, whole and under a limit that row e's liveness
// decides: a simple cell's (y, at 300), a collection cell's (m["k2"], at
// 170), a static cell's (until, at 220) and a row liveness's (e, at 250),
// each live while nowInSec < its expiry (Cassandra's Cell.isLive and
// LivenessInfo.isLive). An engine may keep them apart and judge one a
// second off. An expired liveness is not converted and stays in the
// answer until purged, so for it only the tombstone count (a row holding
// nothing else counts one) or a limit tells; readTimes reads at some of
// these seconds only.
func checkExpirySeconds(t *testing.T, r replica.Replica) {
	for _, base := range timeBases {
		older, newer := rich(fmt.Sprint("expiry seconds ", base), base)
		static := replica.NewPartition(older.Key).WithStatic(replica.Expiring("until", "soon", 10, 20, base+220))
		apply(t, r, older)
		apply(t, r, newer)
		apply(t, r, static)
		stored, _ := repair.Merge(older, newer, static)
		for _, expiry := range []int64{170, 220, 250, 300} {
			for _, now := range []int64{base + expiry - 1, base + expiry} {
				for _, q := range []replica.Query{{}, {Limit: 3}} {
					cmd := replica.Command{Table: conformanceTable, Key: stored.Key, Query: q, NowInSec: now, GCBefore: base + 100}
					if !expectAnswer(t, r, cmd, stored) {
						t.Errorf("what expires at %d: live at a read time before it, not at it or after", base+expiry)
						return
					}
				}
			}
		}
	}
}

// checkGCBeforeSeconds reads rich data, with a partition deletion and a
// row deletion of their own, on keys of their own, at a gcBefore equal to
// the local deletion time of each kind of tombstone in it: a range's (100
// and 200), the partition's (120), a row's (130), a static cell's (150), a
// complex deletion's (180) and a cell's (400), none of which it purges
// (Cassandra purges what was deleted before gcBefore). An engine may keep
// the kinds apart and purge one of them at gcBefore; readTimes reads at a
// gcBefore equal to a range tombstone's and a row liveness's only.
func checkGCBeforeSeconds(t *testing.T, r replica.Replica) {
	for _, base := range timeBases {
		older, newer := rich(fmt.Sprint("gcBefore seconds ", base), base)
		deletions := replica.NewPartition(older.Key, replica.NewRow("f").WithDeletion(replica.DeletedAt(15, base+130))).
			WithDeletion(replica.DeletedAt(1, base+120))
		apply(t, r, older)
		apply(t, r, newer)
		apply(t, r, deletions)
		stored, _ := repair.Merge(older, newer, deletions)
		for _, gcBefore := range []int64{100, 120, 130, 150, 180, 200, 400} {
			cmd := replica.Command{Table: conformanceTable, Key: stored.Key, NowInSec: base + 500, GCBefore: base + gcBefore}
			if !expectAnswer(t, r, cmd, stored) {
				t.Errorf("a tombstone made at %d is purged at a gcBefore after it, not at it", base+gcBefore)
				return
			}
		}
	}
}

// checkDigestVersions reads digests at every version the replica supports,
// of a partition version 1 can express and of one it cannot.
func checkDigestVersions(t *testing.T, r replica.Replica) {
	plain, _ := versions("plain")
	older, newer := rich("rich", 0)
	apply(t, r, plain)
	apply(t, r, older)
	apply(t, r, newer)
	merged, _ := repair.Merge(older, newer)
	for _, p := range []replica.Partition{plain, merged} {
		for v := digest.V1; v <= maxDigestVersion(t, r); v++ {
			cmd := replica.Command{Table: conformanceTable, Key: p.Key, DigestVersion: v, NowInSec: 260, GCBefore: 160}
			expectDigest(t, r, cmd, p)
		}
	}
}

// expectDigest reads cmd's digest and checks it against Respond's for the
// stored partition.
func expectDigest(t *testing.T, r replica.Replica, cmd replica.Command, stored replica.Partition) {
	cmd.DigestOnly = true
	if cmd.DigestVersion == 0 {
		cmd.DigestVersion = askedVersion(t, r)
	}
	want, err := cmd.Respond(stored)
	if err != nil {
		t.Fatalf("Respond: %v", err)
	}
	if got, ok := readDigest(t, r, cmd); ok && got != want.Digest {
		t.Errorf("digest read of %q (columns %q, version %d, read at %d, gcBefore %d) = %v%s, want %v",
			cmd.Key, cmd.Columns, cmd.DigestVersion, cmd.NowInSec, cmd.GCBefore, got, versionHint(cmd, stored, got), want.Digest)
	}
}
