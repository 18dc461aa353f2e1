package replica_test

import (
	"testing"

	"github.com/readpath/readpath/replica"
)

// Ports of Cassandra's PurgeFunctionTest (apache/cassandra,
// test/unit/org/apache/cassandra/db/partitions/PurgeFunctionTest.java): a
// range tombstone from "a" to "b" (exclusive) and one from "b" to "c"
// (inclusive), which Cassandra writes as a start bound, a boundary marker at
// "b" and an end bound, purged at gcBefore. Cassandra's times are 0 and 1 and
// its gcBefore 0, 1 or 2; here each is one more, since the zero Deletion
// means "not deleted". A purged half leaves the other with its own bounds,
// as Cassandra's purge turns the boundary into the bound that remains.
// Each vector is checked on Partition.Purge and on Respond, ascending and
// reversed (the ASC and DESC tests).
func TestPurgeFunctionTestVectors(t *testing.T) {
	const now = 1000
	d := func(t int64) replica.Deletion { return replica.DeletedAt(t, t) }
	halves := func(first, second replica.Deletion) replica.Partition {
		return replica.NewPartition("key").WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("a"), replica.EndBefore("b"), first),
			replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("c"), second))
	}
	tests := []struct {
		name     string
		stored   replica.Partition
		gcBefore int64
		want     replica.Partition
	}{
		{"testNothingIsPurgeable", halves(d(1), d(2)), 1, halves(d(1), d(2))},
		{"testEverythingIsPurgeable", halves(d(1), d(2)), 3, replica.NewPartition("key")},
		{"testFirstHalfIsPurgeable", halves(d(1), d(2)), 2, replica.NewPartition("key").WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("c"), d(2)))},
		{"testSecondHalfIsPurgeable", halves(d(2), d(1)), 2, replica.NewPartition("key").WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("a"), replica.EndBefore("b"), d(2)))},
	}
	for _, tt := range tests {
		requireSamePartition(t, tt.want, tt.stored.Purge(now, tt.gcBefore), tt.name+": Purge")
		for _, reversed := range []bool{false, true} {
			cmd := replica.Command{Table: "table", Key: "key", NowInSec: now, GCBefore: tt.gcBefore}
			cmd.Query.Reversed = reversed
			resp, err := cmd.Respond(tt.stored)
			if err != nil {
				t.Fatalf("%s: reversed %v: %v", tt.name, reversed, err)
			}
			requireSamePartition(t, tt.want, resp.Partition, tt.name+": Respond")
			// A bound counts once, the boundary at "b" once too: Cassandra's
			// MetricRecording counts each marker.
			if want := map[int]int{0: 0, 1: 2, 2: 3}[len(tt.want.RangeTombstones)]; resp.Tombstones != want {
				t.Errorf("%s: reversed %v: %d tombstones, want %d", tt.name, reversed, resp.Tombstones, want)
			}
		}
	}
}
