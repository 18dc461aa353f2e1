package replicatest

import (
	"slices"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// conflict is a set of writes to one partition that an adapter merging
// by anything but the reconciliation rules gets wrong in some order, and
// the read time it is read at.
type conflict struct {
	name           string
	writes         []replica.Partition
	nowInSec, gcBy int64
}

// conflicts are the writes checkApplyConflicts applies: every element of
// the model written twice or more, where a store that keeps the last write
// of a field (a row's liveness, a collection's deletion, a static cell),
// replaces overlapping range tombstones, keeps the first of two deletions
// or tombstones on a timestamp tie, ignores expiry on a tie (a tombstone's
// over an expiring cell's, the later expiry of two), or drops what a
// partition deletion does not cover, answers unlike Respond on the merge.
// The writes' key is empty: each is applied under a key of its own.
func conflicts() []conflict {
	p := func(rows ...replica.Row) replica.Partition { return replica.NewPartition("", rows...) }
	row := replica.NewRow
	static := func(cds ...replica.ComplexDeletion) replica.Partition {
		s := p()
		s.Static = replica.Row{ComplexDeletions: cds}
		return s
	}
	return []conflict{
		{name: "row liveness", writes: []replica.Partition{
			p(row("r").WithLiveness(replica.Inserted(20))),
			p(row("r").WithLiveness(replica.Inserted(10))),
			p(row("r").WithDeletion(replica.DeletedAt(15, 100))),
		}},
		{name: "complex deletion", writes: []replica.Partition{
			p(row("r").WithComplexDeletion("m", replica.DeletedAt(20, 100))),
			p(row("r").WithComplexDeletion("m", replica.DeletedAt(10, 100))),
			p(row("r", replica.Live("m", "v", 18).WithPath("k1"))),
		}},
		{name: "overlapping range tombstones", writes: []replica.Partition{
			p().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("c"), replica.DeletedAt(20, 100))),
			p().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("d"), replica.DeletedAt(10, 100))),
			p(row("a", replica.Live("x", "deleted at 20", 15))),
		}},
		{name: "partition deletions tied", nowInSec: 300, gcBy: 150, writes: []replica.Partition{
			p().WithDeletion(replica.DeletedAt(10, 100)),
			p().WithDeletion(replica.DeletedAt(10, 200)),
		}},
		{name: "expiring cell tied with a live one", nowInSec: 400, gcBy: 100, writes: []replica.Partition{
			p(row("r", replica.Live("x", "b", 10))),
			p(row("r", replica.Expiring("x", "a", 10, 100, 300))),
		}},
		// Ties decided by kind, then by local deletion time: what expires
		// or is purged when (CASSANDRA-14592), not the value or the order
		// of the writes.
		{name: "tombstone tied with an expiring cell", nowInSec: 200, gcBy: 50, writes: []replica.Partition{
			p(row("r", replica.Tombstone("x", 10, 100))),
			p(row("r", replica.Expiring("x", "deleted", 10, 1000, 1100))),
		}},
		{name: "expiring cells tied", nowInSec: 500, gcBy: 50, writes: []replica.Partition{
			p(row("r", replica.Expiring("x", "a, expires later", 10, 1000, 1100))),
			p(row("r", replica.Expiring("x", "b, expires first", 10, 100, 200))),
		}},
		{name: "cell tombstones tied", nowInSec: 400, gcBy: 200, writes: []replica.Partition{
			p(row("r", replica.Tombstone("x", 10, 100))),
			p(row("r", replica.Tombstone("x", 10, 300))),
		}},
		{name: "row liveness tied", nowInSec: 300, gcBy: 250, writes: []replica.Partition{
			p(row("r").WithLiveness(replica.Inserted(10))),
			p(row("r").WithLiveness(replica.InsertedWithTTL(10, 100, 200))),
		}},
		{name: "row deletions tied", nowInSec: 400, gcBy: 200, writes: []replica.Partition{
			p(row("r").WithDeletion(replica.DeletedAt(10, 100))),
			p(row("r").WithDeletion(replica.DeletedAt(10, 300))),
		}},
		{name: "range tombstones tied", nowInSec: 400, gcBy: 200, writes: []replica.Partition{
			p().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("c"), replica.DeletedAt(10, 100))),
			p().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("d"), replica.DeletedAt(10, 300))),
		}},
		{name: "complex deletions tied", nowInSec: 400, gcBy: 200, writes: []replica.Partition{
			p(row("r").WithComplexDeletion("m", replica.DeletedAt(10, 100))),
			p(row("r").WithComplexDeletion("m", replica.DeletedAt(10, 300))),
		}},
		{name: "static complex deletion", writes: []replica.Partition{
			p().WithStatic(replica.Live("tags", "", 10).WithPath("a")),
			static(replica.ComplexDeletion{Column: "tags", Deletion: replica.DeletedAt(20, 100)}),
		}},
		{name: "static row newer than the partition deletion", writes: []replica.Partition{
			p().WithStatic(replica.Live("s", "written after the deletion", 10)),
			p().WithDeletion(replica.DeletedAt(5, 100)),
		}},
		{name: "static cells", writes: []replica.Partition{
			p().WithStatic(replica.Live("s", "new", 20)),
			p().WithStatic(replica.Live("s", "old", 10)),
		}},
	}
}

// checkApplyConflicts applies each conflict's writes in order and in
// reverse, each order to a partition of its own, and reads each, data and
// digest, as Respond answers on the merge of the writes.
func checkApplyConflicts(t *testing.T, r replica.Replica) {
	for _, order := range []string{"in order", "in reverse"} {
		for _, c := range conflicts() {
			key := c.name + ", " + order
			writes := slices.Clone(c.writes)
			if order == "in reverse" {
				slices.Reverse(writes)
			}
			for i := range writes {
				writes[i].Key = key
				apply(t, r, writes[i])
			}
			stored, err := repair.Merge(writes...)
			if err != nil {
				t.Fatalf("merging the writes of %q: %v", key, err)
			}
			expectAnswer(t, r, replica.Command{Table: conformanceTable, Key: key, NowInSec: c.nowInSec, GCBefore: c.gcBy}, stored)
		}
	}
}
