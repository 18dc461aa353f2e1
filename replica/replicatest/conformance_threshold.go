package replicatest

import (
	"errors"
	"strings"
	"testing"

	"github.com/readpath/readpath/replica"
)

// checkTombstoneThreshold reads a partition of tombstones between two live
// rows under failure thresholds: past one, the replica's error must be a
// *replica.TombstoneOverwhelmingError, whatever the query (a limit, a
// slice, reversed: an engine's LIMIT or range scan must count as its full
// scan does, as Cassandra's MetricRecording counts every read), and under
// it the answer must count the tombstones met; a limit that stops the scan
// at a live row before the tombstones spares the read, either way.
func checkTombstoneThreshold(t *testing.T, r replica.Replica) {
	p := replica.NewPartition("tombs", replica.NewRow("a", replica.Live("x", "1", 10)))
	for _, k := range []string{"b", "c", "d", "e", "f"} {
		p.Rows = append(p.Rows, replica.NewRow(k, replica.Tombstone("x", 10, 250)))
	}
	p.Rows = append(p.Rows, replica.NewRow("g", replica.Live("x", "7", 10)))
	apply(t, r, p)
	for _, threshold := range []int{5, 100} {
		cmd := queryCommand("tombs", replica.Query{})
		cmd.TombstoneFailureThreshold = threshold
		expectAnswer(t, r, cmd, p)
	}
	for _, q := range []replica.Query{{Limit: 1}, {Limit: 1, Reversed: true}} {
		cmd := queryCommand("tombs", q)
		cmd.TombstoneFailureThreshold = 3
		expectAnswer(t, r, cmd, p)
	}
	fromB := []replica.Slice{sl(replica.StartAt("b"), replica.Top())}
	toF := []replica.Slice{sl(replica.Bottom(), replica.EndAt("f"))}
	for _, q := range []replica.Query{
		{}, {Reversed: true}, {Slices: fromB}, {Slices: fromB, Limit: 1}, {Slices: toF, Limit: 1, Reversed: true},
	} {
		cmd := queryCommand("tombs", q)
		cmd.TombstoneFailureThreshold = 3
		expectRefusal(t, r, cmd, replica.TombstoneOverwhelmingError{Table: conformanceTable, Key: "tombs", Tombstones: 4, Threshold: 3})
	}
	checkThresholdCounts(t, r)
}

// checkThresholdCounts reads under a threshold of 3 what the threshold
// counts as Cassandra's ReadCommand.MetricRecording does: one count over
// the whole read (every slice together), row deletions and range
// tombstones as well as dead cells, cells expired at nowInSec; and
// nothing purged at gcBefore, which is counted after the purge.
func checkThresholdCounts(t *testing.T, r replica.Replica) {
	live := replica.NewRow("a", replica.Live("x", "1", 10))
	partition := func(key string, rows ...replica.Row) replica.Partition {
		return replica.NewPartition(key, append([]replica.Row{live}, rows...)...)
	}
	var tombstones, rowDeletions, expired, purged []replica.Row
	for _, k := range []string{"b", "c", "d", "e", "f"} {
		tombstones = append(tombstones, replica.NewRow(k, replica.Tombstone("x", 10, 250)))
		rowDeletions = append(rowDeletions, replica.NewRow(k).WithDeletion(replica.DeletedAt(10, 250)))
		expired = append(expired, replica.NewRow(k, replica.Expiring("x", "v", 10, 10, 250)))
		purged = append(purged, replica.NewRow(k, replica.Tombstone("x", 10, queryGCBefore-100)))
	}
	ranges := partition("ranges")
	for _, k := range []string{"b", "d", "f", "h"} {
		ranges.RangeTombstones = append(ranges.RangeTombstones, replica.NewRangeTombstone(
			replica.StartAt(k+"1"), replica.EndAt(k+"2"), replica.DeletedAt(10, 250)))
	}
	two := []replica.Slice{sl(replica.StartAt("b"), replica.EndAt("c")), sl(replica.StartAt("d"), replica.EndAt("f"))}
	for _, c := range []struct {
		what   string
		p      replica.Partition
		q      replica.Query
		refuse bool
	}{
		{"two slices of 2 and 3 tombstones", partition("split", tombstones...), replica.Query{Slices: two}, true},
		{"5 row deletions", partition("row-deletions", rowDeletions...), replica.Query{}, true},
		{"4 range tombstones", ranges, replica.Query{}, true},
		{"5 cells expired at nowInSec", partition("expired", expired...), replica.Query{}, true},
		{"5 tombstones purged at gcBefore", partition("purged", purged...), replica.Query{}, false},
	} {
		apply(t, r, c.p)
		cmd := queryCommand(c.p.Key, c.q)
		cmd.TombstoneFailureThreshold = 3
		_, err := cmd.Respond(c.p)
		var want *replica.TombstoneOverwhelmingError
		if errors.As(err, &want) != c.refuse {
			t.Fatalf("the suite's own check is wrong: Respond of %s = %v", c.what, err)
		}
		if c.refuse {
			expectRefusal(t, r, cmd, *want)
		} else {
			expectAnswer(t, r, cmd, c.p)
		}
	}
}

// expectRefusal reads cmd's data and digest, which must fail with an error
// wrapping want.
func expectRefusal(t *testing.T, r replica.Replica, cmd replica.Command, want replica.TombstoneOverwhelmingError) {
	for _, digestOnly := range []bool{false, true} {
		cmd.DigestOnly = digestOnly
		_, err := readResponse(t, r, cmd)
		var toe *replica.TombstoneOverwhelmingError
		switch {
		case err != nil && !errors.As(err, &toe) && strings.Contains(err.Error(), want.Error()):
			t.Errorf("read of %q (digest only: %v) by %+v with failure threshold %d = %v, which errors.As finds no *replica.TombstoneOverwhelmingError in: return Respond's error, or one wrapping it (a transport must carry its type, not only its text)", cmd.Key, digestOnly, cmd.Query, cmd.TombstoneFailureThreshold, err)
		case err == nil || toe == nil || *toe != want:
			t.Errorf("read of %q (digest only: %v) by %+v with failure threshold %d = %v, want an error wrapping %+v", cmd.Key, digestOnly, cmd.Query, cmd.TombstoneFailureThreshold, err, want)
		}
	}
}
