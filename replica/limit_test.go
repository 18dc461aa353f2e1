package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Which rows count, at now = 100 (Cassandra's DataLimits: a row counts when
// Row.hasLiveData holds after reconciliation).
func TestLiveRowsCountsRowsWithLiveData(t *testing.T) {
	const now = 100
	d := replica.DeletedAt(20, 50)
	tests := []struct {
		name string
		row  replica.Row
		live bool
	}{
		{"a live cell", replica.NewRow("r", replica.Live("v", "x", 10)), true},
		{"liveness alone", replica.NewRow("r").WithLiveness(replica.Inserted(10)), true},
		{"expiring liveness, live", replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(10, 60, now+1)), true},
		{"expiring liveness, expired", replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(10, 60, now)), false},
		{"an expiring cell, live", replica.NewRow("r", replica.Expiring("v", "x", 10, 60, now+1)), true},
		{"an expiring cell, expired", replica.NewRow("r", replica.Expiring("v", "x", 10, 60, now)), false},
		{"a tombstone", replica.NewRow("r", replica.Tombstone("v", 10, 50)), false},
		{"a row deletion", replica.NewRow("r").WithDeletion(d), false},
		{"a cell under the row deletion", replica.NewRow("r", replica.Live("v", "x", 20)).WithDeletion(d), false},
		{"a cell above the row deletion", replica.NewRow("r", replica.Live("v", "x", 21)).WithDeletion(d), true},
		{"liveness under the row deletion", replica.NewRow("r").WithLiveness(replica.Inserted(20)).WithDeletion(d), false},
		{"an element under its complex deletion", replica.NewRow("r", replica.Live("m", "", 20).WithPath("k")).WithComplexDeletion("m", d), false},
		{"an element above its complex deletion", replica.NewRow("r", replica.Live("m", "", 21).WithPath("k")).WithComplexDeletion("m", d), true},
		{"another column than the complex deletion's", replica.NewRow("r", replica.Live("v", "x", 10)).WithComplexDeletion("m", d), true},
		{"a cell under a range tombstone", replica.NewRow("rt", replica.Live("v", "x", 20)), false},
		{"liveness under a range tombstone", replica.NewRow("rt").WithLiveness(replica.Inserted(20)), false},
		{"a cell above a range tombstone", replica.NewRow("rt", replica.Live("v", "x", 21)), true},
		{"a cell under the partition deletion", replica.NewRow("pd", replica.Live("v", "x", 5)), false},
	}
	for _, tt := range tests {
		p := replica.NewPartition("k", tt.row).WithRangeTombstones(
			replica.NewRangeTombstone(replica.StartAt("rt"), replica.EndAt("rt"), d))
		if tt.row.Clustering == "pd" {
			p = p.WithDeletion(replica.DeletedAt(5, 50))
		}
		want := 0
		if tt.live {
			want = 1
		}
		assert.Equal(t, want, p.LiveRows(replica.Query{}, now), tt.name)
		assert.Equal(t, want, len(p.Visible(now).Rows), "%s: the visible view agrees", tt.name)
	}
}

// A partition with live static cells and no live row counts as one row
// only to a query of every row, as CQL shows it only then
// (DataLimits.CQLCounter.onPartitionClose with
// countPartitionsWithOnlyStaticData = ReadCommand.selectsFullPartition).
func TestLiveRowsOfStaticData(t *testing.T) {
	const now = 100
	static := replica.NewPartition("k", replica.NewRow("a").WithDeletion(replica.DeletedAt(5, 50))).
		WithStatic(replica.Live("s", "x", 10))
	slice := replica.Query{Slices: []replica.Slice{slice(replica.StartAt("a"), replica.Top())}}
	assert.Equal(t, 1, static.LiveRows(replica.Query{}, now), "every row")
	assert.Equal(t, 1, static.LiveRows(replica.Query{Slices: []replica.Slice{replica.AllRows()}}, now), "every row, as a slice")
	assert.Equal(t, 0, static.LiveRows(slice, now), "a slice")
	fromEmpty := replica.Query{Slices: []replica.Slice{{Start: replica.StartAt(""), End: replica.Top()}}}
	assert.Equal(t, 0, static.LiveRows(fromEmpty, now), `ck >= "": a restriction, though it selects every row`)
	fromEmpty.Reversed = true
	assert.Equal(t, 0, static.LiveRows(fromEmpty, now), `ck >= "", reversed`)
	assert.Equal(t, 0, static.WithDeletion(replica.DeletedAt(10, 50)).LiveRows(replica.Query{}, now), "deleted with the partition")

	withRow := replica.NewPartition("k", replica.NewRow("a", replica.Live("v", "x", 10))).WithStatic(replica.Live("s", "x", 10))
	assert.Equal(t, 1, withRow.LiveRows(replica.Query{}, now), "the static row does not count beside a live row")

	got, reached := static.Limit(replica.Query{Limit: 1}, now)
	assert.False(t, reached, "nothing can follow static data")
	assert.True(t, got.Equal(static))
}

// rows builds a partition of rows, the live ones holding a cell, the dead
// ones a row deletion, from a pattern such as "1x2x3": digits live, x dead,
// named a, b, c... in order.
func rows(pattern string) replica.Partition {
	var rs []replica.Row
	for i, ch := range pattern {
		k := string(rune('a' + i))
		if ch == 'x' {
			rs = append(rs, replica.NewRow(k).WithDeletion(replica.DeletedAt(5, 50)))
		} else {
			rs = append(rs, replica.NewRow(k, replica.Live("v", string(ch), 10)))
		}
	}
	return replica.NewPartition("k", rs...)
}

func TestLimitKeepsRowsUpToTheLimitthLiveRow(t *testing.T) {
	const now = 100
	tests := []struct {
		name     string
		p        replica.Partition
		q        replica.Query
		want     []string
		reached  bool
		lastWant string
	}{
		{"no limit", rows("1x2"), replica.Query{}, []string{"a", "b", "c"}, false, "c"},
		{"fewer live rows", rows("1x2x"), replica.Query{Limit: 3}, []string{"a", "b", "c", "d"}, false, "d"},
		{"exactly the limit", rows("1x2x"), replica.Query{Limit: 2}, []string{"a", "b", "c"}, true, "c"},
		{"more", rows("x1xx2x3"), replica.Query{Limit: 2}, []string{"a", "b", "c", "d", "e"}, true, "e"},
		{"limit 1", rows("xx1x2"), replica.Query{Limit: 1}, []string{"a", "b", "c"}, true, "c"},
		{"reversed", rows("1x2xx3x"), replica.Query{Limit: 2, Reversed: true}, []string{"c", "d", "e", "f", "g"}, true, "c"},
		{"reversed, limit 1", rows("1x2xx"), replica.Query{Limit: 1, Reversed: true}, []string{"c", "d", "e"}, true, "c"},
		{"reversed, fewer", rows("x1x"), replica.Query{Limit: 2, Reversed: true}, []string{"a", "b", "c"}, false, "a"},
		{"only dead rows", rows("xxx"), replica.Query{Limit: 1}, []string{"a", "b", "c"}, false, "c"},
	}
	for _, tt := range tests {
		got, reached := tt.p.Limit(tt.q, now)
		assert.Equal(t, tt.want, clusterings(got), tt.name)
		assert.Equal(t, tt.reached, reached, tt.name)
		last, ok := got.LastClustering(tt.q)
		assert.True(t, ok, tt.name)
		assert.Equal(t, tt.lastWant, last, tt.name)
		require.NoError(t, got.Validate(), tt.name)
	}
	_, ok := replica.NewPartition("k").LastClustering(replica.Query{})
	assert.False(t, ok, "no row, no last clustering")
}

// A limit that stops inside a range tombstone closes it at the last row,
// inclusive, as Cassandra's RTBoundCloser does (CASSANDRA-14515), and drops
// the range tombstones after it.
func TestLimitClipsRangeTombstonesAtTheLastRow(t *testing.T) {
	const now = 100
	old, other := replica.DeletedAt(1, 50), replica.DeletedAt(2, 50)
	p := rows("1x2x3").WithRangeTombstones(
		replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore("b"), other),
		replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("d"), old),
		replica.NewRangeTombstone(replica.StartAfter("d"), replica.Top(), other))
	got, reached := p.Limit(replica.Query{Limit: 2}, now)
	require.True(t, reached)
	assert.Equal(t, []replica.RangeTombstone{
		replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore("b"), other),
		replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("c"), old),
	}, got.RangeTombstones, "forward")
	assert.Len(t, p.RangeTombstones, 3, "the input is not modified")
	assert.Equal(t, replica.EndAt("d"), p.RangeTombstones[1].End, "the input is not modified")

	got, reached = p.Limit(replica.Query{Limit: 2, Reversed: true}, now)
	require.True(t, reached)
	assert.Equal(t, []replica.RangeTombstone{
		replica.NewRangeTombstone(replica.StartAt("c"), replica.EndAt("d"), old),
		replica.NewRangeTombstone(replica.StartAfter("d"), replica.Top(), other),
	}, got.RangeTombstones, "reversed")

	got, _ = p.Limit(replica.Query{Limit: 3}, now)
	assert.Equal(t, p.RangeTombstones[:2], got.RangeTombstones[:2])
	assert.Equal(t, replica.NewRangeTombstone(replica.StartAfter("d"), replica.EndAt("e"), other), got.RangeTombstones[2],
		"closed at the last row even with nothing after it")

	first := rows("1").WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), old))
	got, _ = first.Limit(replica.Query{Limit: 1, Reversed: true}, now)
	assert.Equal(t, []replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("a"), replica.Top(), old)}, got.RangeTombstones)
	empty := replica.NewPartition("k", replica.NewRow("", replica.Live("v", "x", 10))).
		WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), old))
	got, _ = empty.Limit(replica.Query{Limit: 1, Reversed: true}, now)
	assert.Equal(t, []replica.RangeTombstone{replica.NewRangeTombstone(replica.Bottom(), replica.Top(), old)}, got.RangeTombstones,
		"the position before the empty key is Bottom")
}
