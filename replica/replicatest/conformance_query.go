package replicatest

import (
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// The read time of the query checks: the expiring cell of row "c" has
// expired (and is a tombstone not yet purged), the tombstones are younger
// than gcBefore.
const queryNow, queryGCBefore = 300, 200

// queried returns two versions of partition key for the query checks: rows
// "a" to "h", live ones interleaved with a deleted row, an expired cell and
// a tombstone, two under a range tombstone older than they are, and a
// static row with a tombstone. Two rows hold a deletion beside a dead cell,
// which count only the cell (Cassandra's MetricRecording counts a row's
// deletion, or its expired liveness, only in a row with no dead cell): c,
// whose liveness expired with its cell, and e, deleted before its
// tombstone was written.
func queried(key string) (older, newer replica.Partition) {
	d := replica.DeletedAt(5, 250)
	older = replica.NewPartition(key,
		replica.NewRow("a", replica.Live("x", "1", 10)).WithLiveness(replica.Inserted(10)),
		replica.NewRow("b", replica.Live("x", "2", 10)),
		replica.NewRow("c", replica.Expiring("x", "3", 10, 10, 250)).WithLiveness(replica.InsertedWithTTL(10, 10, 250)),
		replica.NewRow("d", replica.Live("x", "4", 10), replica.Live("y", "4", 10)),
		replica.NewRow("f", replica.Live("x", "6", 10)),
	).WithStatic(replica.Live("s", "static", 10))
	newer = replica.NewPartition(key,
		replica.NewRow("b").WithDeletion(replica.DeletedAt(20, 260)),
		replica.NewRow("e", replica.Tombstone("x", 20, 260)).WithDeletion(replica.DeletedAt(15, 260)),
		replica.NewRow("g", replica.Live("y", "7", 20)),
		replica.NewRow("h", replica.Live("x", "8", 20)),
	).WithStatic(replica.Tombstone("t", 20, 260)).
		WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("e"), replica.EndAt("g"), d))
	return older, newer
}

func queryCommand(key string, q replica.Query) replica.Command {
	return replica.Command{Table: conformanceTable, Key: key, Query: q, NowInSec: queryNow, GCBefore: queryGCBefore}
}

func sl(start, end replica.Bound) replica.Slice { return replica.Slice{Start: start, End: end} }

// checkQuerySlices reads slices with inclusive, exclusive and open bounds:
// the rows in them, the range tombstones clipped to them, the static row.
func checkQuerySlices(t *testing.T, r replica.Replica) {
	stored := applyVersions(t, r, "q", queried)
	for _, slices := range [][]replica.Slice{
		{sl(replica.StartAt("b"), replica.EndAt("d"))},
		{sl(replica.StartAfter("b"), replica.EndBefore("g"))},
		{sl(replica.Bottom(), replica.EndAt("c"))},
		{sl(replica.StartAt("f"), replica.Top())},
		{sl(replica.StartAt("a"), replica.EndAt("a")), sl(replica.StartAt("e"), replica.EndBefore("f"))},
		{sl(replica.StartAt("c"), replica.EndBefore("f")), sl(replica.StartAt("f"), replica.EndAt("g"))},
		{},
	} {
		expectAnswer(t, r, queryCommand("q", replica.Query{Slices: slices}), stored)
	}
	cmd := queryCommand("q", replica.Query{Slices: []replica.Slice{sl(replica.StartAt("d"), replica.Top())}})
	for _, cols := range [][]string{{"y"}, {"s", "y"}} { // and a static column: the static row is projected, not dropped
		cmd.Columns = cols
		expectAnswer(t, r, cmd, stored)
	}
}

// checkQueryStaticOnly reads partitions of static data alone, one with no
// row and one whose row is deleted, by every row and by slices, one from
// StartAt("") among them, forward, reversed and limited: each answer holds
// the static row, as Respond's does. Whether such a partition shows as a
// row is the coordinator's to decide (replica.Query.SelectsAllRows), from
// the static row an answer holds, so a replica that finds a partition
// through its rows, and answers a slice of one with none as missing, hides
// it from a query of every row written as AllRows.
func checkQueryStaticOnly(t *testing.T, r replica.Replica) {
	static := replica.NewPartition("static").WithStatic(replica.Live("s", "static", 10))
	deleted := replica.NewPartition("static, row deleted", replica.NewRow("a").WithDeletion(replica.DeletedAt(20, 260))).
		WithStatic(replica.Live("s", "static", 10))
	for _, p := range []replica.Partition{static, deleted} {
		apply(t, r, p)
		for _, slices := range [][]replica.Slice{
			nil,
			{replica.AllRows()},
			{sl(replica.StartAt(""), replica.Top())},
			{sl(replica.StartAt("a"), replica.Top())},
			{sl(replica.StartAt(""), replica.EndBefore("a"))},
		} {
			for _, q := range []replica.Query{{Slices: slices}, {Slices: slices, Limit: 1}, {Slices: slices, Limit: 1, Reversed: true}} {
				expectAnswer(t, r, queryCommand(p.Key, q), p)
			}
		}
	}
}

// checkQueryLimits reads with limits, forward and reversed: only live rows
// count (of a column selection, the rows live in it), one limit holds for
// all of a query's slices, the answer ends at the limit-th with the range
// tombstone clipped there, and a digest read digests that answer.
func checkQueryLimits(t *testing.T, r replica.Replica) {
	stored := applyVersions(t, r, "q", queried)
	gToH := []replica.Slice{sl(replica.StartAt("b"), replica.EndAt("g"))}
	// One limit for all the slices, not one each: a's and d's rows are the
	// first two, b's deleted row between them.
	two := []replica.Slice{sl(replica.StartAt("a"), replica.EndAt("b")), sl(replica.StartAt("d"), replica.EndAt("g"))}
	for _, q := range []replica.Query{
		{Limit: 1}, {Limit: 2}, {Limit: 3}, {Limit: 5}, {Limit: 9},
		{Limit: 1, Reversed: true}, {Limit: 2, Reversed: true}, {Limit: 3, Reversed: true}, {Limit: 5, Reversed: true},
		{Slices: gToH, Limit: 2}, {Slices: gToH, Limit: 2, Reversed: true},
		{Slices: two, Limit: 2}, {Slices: two, Limit: 2, Reversed: true},
	} {
		expectAnswer(t, r, queryCommand("q", q), stored)
	}
	// A row with no live cell in the selection, nor row liveness, is not
	// seen, so it does not count: the last row, h, holds only x, and the
	// reversed read's first row of y is g.
	for _, q := range []replica.Query{{Limit: 1, Reversed: true}, {Limit: 2, Reversed: true}, {Limit: 2}} {
		cmd := queryCommand("q", q)
		cmd.Columns = []string{"y"}
		expectAnswer(t, r, cmd, stored)
	}
}

// applyVersions applies both versions of key and returns their merge.
func applyVersions(t *testing.T, r replica.Replica, key string, versions func(string) (older, newer replica.Partition)) replica.Partition {
	older, newer := versions(key)
	apply(t, r, older)
	apply(t, r, newer)
	stored, err := repair.Merge(older, newer)
	if err != nil {
		t.Fatalf("merging the versions of %q: %v", key, err)
	}
	return stored
}

// expectAnswer reads cmd's data and digest and checks them, and the
// tombstones counted, against Respond's for the stored partition (see
// checkAnswer). It reports whether both were right.
func expectAnswer(t *testing.T, r replica.Replica, cmd replica.Command, stored replica.Partition) bool {
	if cmd.DigestVersion == 0 {
		cmd.DigestVersion = askedVersion(t, r)
	}
	ok := true
	for _, digestOnly := range []bool{false, true} {
		cmd.DigestOnly = digestOnly
		if got, err := readResponse(t, r, cmd); err != nil {
			t.Errorf("%s by %+v: %v", describe(cmd), cmd.Query, err)
			ok = false
		} else {
			ok = checkAnswer(t, cmd, got, stored) && ok
		}
	}
	return ok
}

// checkAnswer checks got, cmd's answer, against Respond's for the stored
// partition, in what the coordinator uses of it: the partition of a data
// answer, the digest of a digest answer (replica.Response says the
// coordinator ignores a data answer's digest), and the tombstone count.
// It reports whether got was right.
func checkAnswer(t *testing.T, cmd replica.Command, got replica.Response, stored replica.Partition) bool {
	want, err := cmd.Respond(stored)
	if err != nil {
		t.Fatalf("Respond: %v", err)
	}
	switch {
	case cmd.DigestOnly && !got.Partition.Equal(replica.NewPartition(got.Partition.Key)):
		t.Errorf("%s by %+v: a digest answer carries data %v: the coordinator drops it, and it costs the network",
			describe(cmd), cmd.Query, got.Partition)
	case cmd.DigestOnly && got.Digest != want.Digest:
		t.Errorf("%s by %+v, columns %q, read at %d, gcBefore %d, version %d\n got digest %v%s\nwant digest %v",
			describe(cmd), cmd.Query, cmd.Columns, cmd.NowInSec, cmd.GCBefore, cmd.DigestVersion, got.Digest,
			versionHint(cmd, stored, got.Digest), want.Digest)
	case !cmd.DigestOnly && !got.Partition.Equal(want.Partition):
		t.Errorf("%s by %+v, columns %q, read at %d, gcBefore %d\n got data %v\nwant data %v",
			describe(cmd), cmd.Query, cmd.Columns, cmd.NowInSec, cmd.GCBefore, got.Partition, want.Partition)
	case got.Tombstones != want.Tombstones:
		t.Errorf("%s by %+v, read at %d, gcBefore %d, counted %d tombstones, want %d",
			describe(cmd), cmd.Query, cmd.NowInSec, cmd.GCBefore, got.Tombstones, want.Tombstones)
	default:
		return true
	}
	return false
}
