package replicatest

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/readpath/readpath/internal/typednil"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// callTimeout bounds every call the conformance check makes; with
// callGrace it bounds how long a replica that hangs can hold up a check.
var callTimeout = 10 * time.Second

// conformanceTable is the table the conformance check writes to.
const conformanceTable = "replicatest"

// check is one named part of the conformance check.
type check struct {
	name string
	run  func(t *testing.T, r replica.Replica)
}

// TestReplica checks that a replica.Replica keeps the contract of the
// interface's documentation, as fstest.TestFS does for file systems. Run it
// from a test of your adapter:
//
//	func TestAdapter(t *testing.T) {
//		replicatest.TestReplica(t, func(t *testing.T) replica.Replica {
//			return myadapter.New(startEmptyNode(t))
//		})
//	}
//
// Each check runs as a subtest on a fresh, empty replica from newReplica, which
// may fail t (a nil replica, or a nil pointer as one, fails the check). The
// checks: a cancelled context or a passed deadline makes Read, Apply and a
// replica.Prober's Probe fail with an error wrapping the context's error
// (ctx.Err(), also when the context ended with a cause, which context.Cause
// gives; a Probe may fail with errors.ErrUnsupported instead), and a context
// cancelled while the call runs makes it return, failing so or answering
// truly (a read with what the replica holds, an Apply with nil only for a
// write made); a partition never written reads as Partition{Key: key}; a data
// response carries the command's key; a digest-only read returns the digest of
// the partition a data read returns (with and without a column selection, an
// empty one included); Apply merges (two versions applied in both orders read
// as repair.Merge of them, cells whose timestamps tie and deletions of the same
// partition and row included, and applying twice changes nothing; and every
// element written twice or more, in both orders: row liveness, complex
// deletions, overlapping range tombstones, tied deletions, an expiring cell
// tied with a live one, static cells and deletions; and ties of timestamps that
// kind or local deletion time decides: a tombstone and an expiring cell, two
// expiring cells, two tombstones, row liveness, and row, range and complex
// deletions) and leaves the partition it is given as it was, when it returns
// and after later calls; a read after a write sees it (an answer cached before
// it, a digest say, must not be); a column selection projects; tables are
// separate, in data and digests; partition and clustering keys are bytes, not C
// or UTF-8 strings (keys that differ only after a zero byte, or only in 0xfe
// and 0xff, stay apart), and a clustering key may be empty; concurrent Reads
// and Applies are safe (run the test with -race) and lose no write; every
// answer, at several read times (the second each of a simple cell, a
// collection's cell, a static cell and a row liveness expires and the one
// before, whole and under a limit the liveness decides; others expire cells and
// purge some tombstones, which are then not counted; read forward, then back,
// so that a store keeping what a read purged fails; some at a gcBefore equal to
// the local deletion time of each kind of tombstone (partition, row, range,
// complex, cell, static cell) or a row liveness's expiry, which purges neither,
// and some at a gcBefore of 0 or less, which purges no tombstone, as the
// coordinator sends for a read time within gc_grace_seconds of the epoch),
// column selections and digest versions, is what Command.Respond gives for the
// data written, which holds a static row, range tombstones, row liveness,
// complex cells and deletions; a digest read at every version up to
// the replica's MaxDigestVersion (replica.DigestVersioner) is Respond's, and
// that version is at least digest.V1 and stays the same through writes and
// reads; reads
// by a Query are Respond's: slices with inclusive, exclusive and open bounds
// (and of a static column, which keeps the static row), limits forward and
// reversed that count only live rows (deleted and expired rows interleaved; of
// a column selection, the rows live in it), one limit for all of a query's
// slices, and clip a range tombstone at the last row, the static row; a
// partition of static data alone read by slices (from StartAt("") too)
// answers its static row; pages
// read forward and reversed by Query.After the last row, as the coordinator
// pages and protects short reads; and a read past the command's
// TombstoneFailureThreshold fails with an error that errors.As finds to be the
// *replica.TombstoneOverwhelmingError Respond returns; a replica.Prober's
// Probe, among reads, answers nil (or an error matching errors.ErrUnsupported,
// a wrapper's of a replica that is no Prober): a replica that serves must look
// reachable to a failure detector; Read leaves the Columns and Slices of the
// Command it is given as they were, while it runs and after it returns (a
// coordinator shares one Command between goroutines: after each read, and once
// more in a last subtest, "commands stay as given later", every command the
// run sent is checked; a change that lands after the run's end shows only
// under -race), and an answer, once returned, stays as it was through later
// reads and writes. An answer is compared with Respond's in what
// the coordinator uses of it: a data answer's partition, a digest answer's
// digest (a data answer may carry a digest too; replica.Response says it is
// ignored), and the tombstone count of both. The digest reads of the checks
// that are not about digest versions ask for the newest version, or for a
// replica.DigestVersioner's MaxDigestVersion if it is older, as a coordinator
// never asks a replica for a version it does not support.
//
// Every call (Endpoint and MaxDigestVersion too) runs on a goroutine of
// its own under a context with a 10 s timeout. A call that has not
// returned 1 s after its context ended fails the check, naming the call,
// and the check makes no more calls: a replica that ignores its context
// and hangs fails instead of wedging the test (its hung goroutine is left
// running). So does a call that fails at the 10 s timeout (a node never
// reached, say), in one timeout, not one per call. So does a call that
// panics, or calls runtime.Goexit (t.FailNow on the replica's goroutine):
// the failure names the call and gives the panic's value and the
// replica's stack, and the other checks run, where a panic on a goroutine
// of the replica's own still crashes the test binary. And so does a call
// that returns a nil pointer as its error (a nil *RPCError, say: no nil
// error), or an error wrapping one, which errors.Is and errors.As would
// crash on.
//
// The data is timed near the Unix epoch: its deletion and expiry times are
// 100 to 400 seconds after 1970, and the commands' NowInSec and GCBefore (0
// to 500) decide what has expired and which tombstones are purged, as
// Respond does. The read-time check writes and reads the same data again
// with every time moved past 2106, where an engine that keeps times in 32
// bits wraps them and fails. A storage engine that rewrites data on its own by the wall
// clock (compaction that turns expired cells into tombstones and purges
// tombstones older than now − gc_grace_seconds) would rewrite all of it as
// it is written and answer unlike Respond: run the check with that off, with
// compaction disabled or its clock set to 0 (Partition.Purge(0, 0) changes
// nothing).
func TestReplica(t *testing.T, newReplica func(t *testing.T) replica.Replica) {
	t.Helper()
	sent := new(sentLog)
	for _, c := range checks() {
		t.Run(c.name, func(t *testing.T) {
			watch(t, sent)
			r := newReplica(t)
			switch {
			case r == nil:
				t.Fatal("newReplica returned nil")
			case typednil.Holds(r): // its every call would crash the test binary
				t.Fatalf("newReplica returned a nil %T", r)
			}
			c.run(t, r)
		})
	}
	t.Run("commands stay as given later", func(t *testing.T) { sent.verify(t, "at the end of the run") })
}

func checks() []check {
	return []check{
		{"endpoint", checkEndpoint},
		{"cancelled context", checkCancelled},
		{"passed deadline", checkDeadline},
		{"cancelled in flight", checkCancelledInFlight},
		{"missing partition", checkMissing},
		{"response key", checkResponseKey},
		{"digest matches data", checkDigest},
		{"apply merges", checkApplyMerges},
		{"apply merges conflicts", checkApplyConflicts},
		{"apply leaves its input", checkApplyLeavesItsInput},
		{"reads after a write", checkReadsAfterWrite},
		{"columns", checkColumns},
		{"tables are separate", checkTables},
		{"binary keys", checkBinaryKeys},
		{"concurrent use", checkConcurrent},
		{"read time", checkReadTime},
		{"digest versions", checkDigestVersions},
		{"digest versioner", checkDigestVersioner},
		{"query slices", checkQuerySlices},
		{"query limits", checkQueryLimits},
		{"query static only", checkQueryStaticOnly},
		{"query paging", checkQueryPaging},
		{"tombstone threshold", checkTombstoneThreshold},
		{"commands stay as given", checkCommandsStayAsGiven},
		{"answers stay as returned", checkAnswersStayAsReturned},
		{"probe", checkProbe},
	}
}

func checkEndpoint(t *testing.T, r replica.Replica) {
	endpoint := func() (replica.Endpoint, error) {
		return call(t, "Endpoint", func(context.Context) (replica.Endpoint, error) { return r.Endpoint(), nil })
	}
	ep, err := endpoint()
	if err != nil {
		return // call has reported it
	}
	if ep.ID == "" {
		t.Errorf("Endpoint() = %v: empty ID", ep)
	}
	if again, err := endpoint(); err == nil && again != ep {
		t.Errorf("Endpoint() changed from %v to %v", ep, again)
	}
}

func checkMissing(t *testing.T, r replica.Replica) {
	want := replica.Partition{Key: "missing"}
	if got, ok := readData(t, r, replica.Command{Table: conformanceTable, Key: "missing"}); ok && !got.Equal(want) {
		t.Errorf("data read of a missing partition = %+v, want %+v", got, want)
	}
	v := askedVersion(t, r)
	wantDigest, _ := want.DigestAt(v)
	if got, ok := readDigest(t, r, replica.Command{Table: conformanceTable, Key: "missing", DigestVersion: v}); ok && got != wantDigest {
		t.Errorf("digest read of a missing partition = %v, want the empty partition's %v", got, wantDigest)
	}
}

func checkResponseKey(t *testing.T, r replica.Replica) {
	older, _ := versions("present")
	apply(t, r, older)
	for _, key := range []string{"present", "absent"} {
		if got, ok := readData(t, r, replica.Command{Table: conformanceTable, Key: key}); ok && got.Key != key {
			t.Errorf("data read of key %q returned key %q", key, got.Key)
		}
	}
}

func checkDigest(t *testing.T, r replica.Replica) {
	older, newer := versions("k")
	apply(t, r, older)
	apply(t, r, newer)
	for _, cols := range [][]string{nil, {"b", "e"}} {
		cmd := replica.Command{Table: conformanceTable, Key: "k", Columns: cols, DigestVersion: askedVersion(t, r)}
		data, ok1 := readData(t, r, cmd)
		d, ok2 := readDigest(t, r, cmd)
		want, _ := data.DigestAt(cmd.DigestVersion)
		if ok1 && ok2 && d != want {
			t.Errorf("columns %q: digest read = %v, the data read's partition digests to %v", cols, d, want)
		}
	}
}

func checkApplyMerges(t *testing.T, r replica.Replica) {
	for _, key := range []string{"older first", "newer first"} {
		older, newer := versions(key)
		order := []replica.Partition{older, newer}
		if key == "newer first" {
			slices.Reverse(order)
		}
		for _, p := range append(order, order...) {
			apply(t, r, p)
		}
		want, _ := repair.Merge(older, newer)
		expectData(t, r, replica.Command{Table: conformanceTable, Key: key}, want)
	}
}

func checkColumns(t *testing.T, r replica.Replica) {
	older, newer := versions("k")
	apply(t, r, older)
	apply(t, r, newer)
	merged, _ := repair.Merge(older, newer)
	// An empty selection reads no column, unlike nil: a transport that
	// sends an empty list as none (gob, protobuf) must keep them apart.
	for _, cols := range [][]string{{"a"}, {"b", "e"}, {"nothing"}, {}} {
		expectAnswer(t, r, replica.Command{Table: conformanceTable, Key: "k", Columns: cols}, merged)
	}
}

func checkTables(t *testing.T, r replica.Replica) {
	older, newer := versions("k")
	apply(t, r, older)
	if err := applyErr(t, r, conformanceTable+"-other", newer.Clone()); err != nil {
		t.Errorf("Apply to another table: %v", err)
	}
	// Data and digest: a cache of either keyed without the table answers
	// one table's read with the other's.
	expectAnswer(t, r, replica.Command{Table: conformanceTable, Key: "k"}, older)
	expectAnswer(t, r, replica.Command{Table: conformanceTable + "-other", Key: "k"}, newer)
}

// checkConcurrent has writers apply cells of their own while readers read;
// at the end the replica must hold every write. Every write is a cell of
// its own (an element of the writer's collection), so an adapter that
// loses any write to a concurrent one (read, merge and store with no
// lock) fails, not only one that loses a writer's last; the writers start
// together, to overlap as much as they can.
func checkConcurrent(t *testing.T, r replica.Replica) {
	const writers, writes = 4, 25
	var wg sync.WaitGroup
	var all []replica.Partition
	start := make(chan struct{})
	for w := range writers {
		var mine []replica.Partition
		for i := range writes {
			mine = append(mine, replica.NewPartition("hot", replica.NewRow("row",
				replica.Live("c"+strconv.Itoa(w), strconv.Itoa(i), int64(i+1)).WithPath(strconv.Itoa(i)))))
		}
		all = append(all, mine...)
		wg.Go(func() { <-start; applyAll(t, r, mine) })
		wg.Go(func() { <-start; readRepeatedly(t, r, writes) })
	}
	close(start)
	wg.Wait()
	want, _ := repair.Merge(all...)
	expectData(t, r, replica.Command{Table: conformanceTable, Key: "hot"}, want)
}

func applyAll(t *testing.T, r replica.Replica, ps []replica.Partition) {
	for _, p := range ps {
		apply(t, r, p)
	}
}

func readRepeatedly(t *testing.T, r replica.Replica, n int) {
	for i := range n {
		cmd := replica.Command{Table: conformanceTable, Key: "hot", DigestOnly: i%2 == 1, DigestVersion: askedVersion(t, r)}
		if _, err := readResponse(t, r, cmd); err != nil {
			t.Errorf("concurrent Read: %v", err)
		}
	}
}
