package repair_test

import (
	"encoding/binary"
	"testing"

	"github.com/readpath/readpath/replica"
)

// Vectors ported from Cassandra's RowAndDeletionMergeIteratorTest
// (apache/cassandra, test/unit/org/apache/cassandra/db/rows/
// RowAndDeletionMergeIteratorTest.java): rows 0 to 4, each with a = i at
// timestamp 0, merged with range tombstones of every kind of bound. Where
// Cassandra emits a boundary marker between two ranges of one deletion
// that touch, Merge joins them into one range.

const radNow = 1700000000

func radKey(i int) string { return string(binary.BigEndian.AppendUint32(nil, uint32(i))) }

func radRows(is ...int) []replica.Row {
	rows := make([]replica.Row, len(is))
	for n, i := range is {
		rows[n] = row(radKey(i), live("a", radKey(i), 0))
	}
	return rows
}

func TestRowAndDeletionMerge(t *testing.T) {
	d := delAt((radNow+1)*1000, radNow+1) // toMillis(delTime), as the test
	rt := func(start, end replica.Bound) replica.RangeTombstone { return replica.NewRangeTombstone(start, end, d) }
	atLeast := func(i int) replica.RangeTombstone { return rt(replica.StartAt(radKey(i)), replica.Top()) }
	atMost := func(i int) replica.RangeTombstone { return rt(replica.Bottom(), replica.EndAt(radKey(i))) }
	lessThan := func(i int) replica.RangeTombstone { return rt(replica.Bottom(), replica.EndBefore(radKey(i))) }
	greaterThan := func(i int) replica.RangeTombstone { return rt(replica.StartAfter(radKey(i)), replica.Top()) }
	all := part("k", radRows(0, 1, 2, 3, 4)...)
	tests := []struct {
		name     string
		versions []replica.Partition
		want     replica.Partition
	}{
		{"testWithNoRangeTombstones", []replica.Partition{all}, all},
		{"testWithOnlyRangeTombstones",
			[]replica.Partition{part("k").WithRangeTombstones(rt(replica.StartAfter(radKey(1)), replica.EndBefore(radKey(3))), atLeast(4))},
			part("k").WithRangeTombstones(rt(replica.StartAfter(radKey(1)), replica.EndBefore(radKey(3))), atLeast(4))},
		{"testWithAtMostRangeTombstone",
			[]replica.Partition{all, part("k").WithRangeTombstones(atMost(0))},
			part("k", radRows(1, 2, 3, 4)...).WithRangeTombstones(atMost(0))},
		{"testWithGreaterThanRangeTombstone",
			[]replica.Partition{all, part("k").WithRangeTombstones(greaterThan(2))},
			part("k", radRows(0, 1, 2)...).WithRangeTombstones(greaterThan(2))},
		{"testWithAtMostAndGreaterThanRangeTombstone",
			[]replica.Partition{all, part("k").WithRangeTombstones(atMost(0), greaterThan(2))},
			part("k", radRows(1, 2)...).WithRangeTombstones(atMost(0), greaterThan(2))},
		{"testWithIncludingEndExcludingStartMarker: one range",
			[]replica.Partition{all, part("k").WithRangeTombstones(atMost(2), greaterThan(2))},
			part("k").WithRangeTombstones(rt(replica.Bottom(), replica.Top()))},
		{"testWithExcludingEndIncludingStartMarker: one range",
			[]replica.Partition{all, part("k").WithRangeTombstones(lessThan(2), atLeast(2))},
			part("k").WithRangeTombstones(rt(replica.Bottom(), replica.Top()))},
		// A deletion older than the rows shadows nothing. Cassandra's is at
		// timestamp -1, local deletion time 0; a Deletion needs a positive
		// local deletion time.
		{"testNonShadowingTombstone",
			[]replica.Partition{all, part("k").WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.EndAt(radKey(0)), delAt(-1, 1)))},
			all.WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.EndAt(radKey(0)), delAt(-1, 1)))},
		// A newer partition deletion leaves neither rows nor the ranges it
		// covers.
		{"testWithPartitionLevelTombstone",
			[]replica.Partition{all, part("k").WithRangeTombstones(
				replica.NewRangeTombstone(replica.Bottom(), replica.EndAt(radKey(0)), delAt((radNow-1)*1000, radNow-1)),
				replica.NewRangeTombstone(replica.StartAfter(radKey(2)), replica.Top(), delAt((radNow-1)*1000, radNow-1))),
				part("k").WithDeletion(d)},
			part("k").WithDeletion(d)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireSame(t, tt.want, mustMerge(t, tt.versions...), "merge")
		})
	}
}
