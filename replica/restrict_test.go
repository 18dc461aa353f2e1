package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// five returns a partition of rows "a" to "e", a static row and a
// partition deletion below everything.
func five() replica.Partition {
	var rows []replica.Row
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		rows = append(rows, replica.NewRow(k, replica.Live("v", k, 10)))
	}
	return replica.NewPartition("k", rows...).WithStatic(replica.Live("s", "x", 10)).WithDeletion(replica.DeletedAt(1, 1))
}

func TestRestrictRows(t *testing.T) {
	tests := []struct {
		name   string
		slices []replica.Slice
		want   []string
	}{
		{"inclusive", []replica.Slice{slice(replica.StartAt("b"), replica.EndAt("d"))}, []string{"b", "c", "d"}},
		{"exclusive", []replica.Slice{slice(replica.StartAfter("b"), replica.EndBefore("d"))}, []string{"c"}},
		{"open start", []replica.Slice{slice(replica.Bottom(), replica.EndBefore("c"))}, []string{"a", "b"}},
		{"open end", []replica.Slice{slice(replica.StartAfter("c"), replica.Top())}, []string{"d", "e"}},
		{"every row", []replica.Slice{replica.AllRows()}, []string{"a", "b", "c", "d", "e"}},
		{"between rows", []replica.Slice{slice(replica.StartAt("b\x00"), replica.EndAt("bz"))}, nil},
		{"one key", []replica.Slice{slice(replica.StartAt("c"), replica.EndAt("c"))}, []string{"c"}},
		{"several", []replica.Slice{slice(replica.Bottom(), replica.EndAt("a")), slice(replica.StartAfter("b"), replica.EndAt("c")),
			slice(replica.StartAt("e"), replica.Top())}, []string{"a", "c", "e"}},
		{"touching", []replica.Slice{slice(replica.StartAt("b"), replica.EndAt("b")), slice(replica.StartAfter("b"), replica.EndAt("c"))}, []string{"b", "c"}},
		{"no slice", []replica.Slice{}, nil},
	}
	for _, tt := range tests {
		p := five()
		got := p.Restrict(replica.Query{Slices: tt.slices})
		assert.Equal(t, tt.want, clusterings(got), tt.name)
		assert.Equal(t, p.Deletion, got.Deletion, "%s: the partition deletion stays", tt.name)
		assert.True(t, p.Static.Equal(got.Static), "%s: the static row stays", tt.name)
		require.NoError(t, got.Validate(), tt.name)
	}
}

func TestRestrictClipsRangeTombstones(t *testing.T) {
	d, e := replica.DeletedAt(5, 5), replica.DeletedAt(6, 6)
	wide := replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("e"), d)
	tests := []struct {
		name   string
		rts    []replica.RangeTombstone
		slices []replica.Slice
		want   []replica.RangeTombstone
	}{
		{"inside", []replica.RangeTombstone{wide}, []replica.Slice{slice(replica.StartAfter("b"), replica.EndAt("d"))},
			[]replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAfter("b"), replica.EndAt("d"), d)}},
		{"around", []replica.RangeTombstone{wide}, []replica.Slice{replica.AllRows()}, []replica.RangeTombstone{wide}},
		{"over the start", []replica.RangeTombstone{wide}, []replica.Slice{slice(replica.Bottom(), replica.EndBefore("c"))},
			[]replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("a"), replica.EndBefore("c"), d)}},
		{"two slices", []replica.RangeTombstone{wide},
			[]replica.Slice{slice(replica.Bottom(), replica.EndBefore("b")), slice(replica.StartAfter("c"), replica.EndAt("d"))},
			[]replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("a"), replica.EndBefore("b"), d),
				replica.NewRangeTombstone(replica.StartAfter("c"), replica.EndAt("d"), d)}},
		{"touching slices join", []replica.RangeTombstone{wide},
			[]replica.Slice{slice(replica.StartAt("b"), replica.EndBefore("c")), slice(replica.StartAt("c"), replica.EndAt("d"))},
			[]replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("d"), d)}},
		{"touching ranges stay apart", []replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("a"), replica.EndBefore("c"), d),
			replica.NewRangeTombstone(replica.StartAt("c"), replica.EndAt("e"), e)},
			[]replica.Slice{slice(replica.StartAt("b"), replica.EndAt("d"))},
			[]replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAt("b"), replica.EndBefore("c"), d),
				replica.NewRangeTombstone(replica.StartAt("c"), replica.EndAt("d"), e)}},
		{"outside", []replica.RangeTombstone{wide}, []replica.Slice{slice(replica.StartAfter("e"), replica.Top())}, nil},
		{"touching the slice only", []replica.RangeTombstone{wide}, []replica.Slice{slice(replica.StartAt("e\x00"), replica.Top())}, nil},
		{"canonical bounds", []replica.RangeTombstone{wide}, []replica.Slice{slice(replica.StartAt("b\x00"), replica.EndBefore("d\x00"))},
			[]replica.RangeTombstone{replica.NewRangeTombstone(replica.StartAfter("b"), replica.EndAt("d"), d)}},
		{"no slice", []replica.RangeTombstone{wide}, []replica.Slice{}, nil},
	}
	for _, tt := range tests {
		p := five().WithRangeTombstones(tt.rts...)
		got := p.Restrict(replica.Query{Slices: tt.slices})
		assert.Equal(t, tt.want, got.RangeTombstones, tt.name)
		require.NoError(t, got.Validate(), tt.name)
	}
}

func TestRestrictWithoutSlicesIsTheInput(t *testing.T) {
	p := five()
	got := p.Restrict(replica.Query{Reversed: true, Limit: 1})
	require.True(t, got.Equal(p))
	assert.Same(t, &p.Rows[0], &got.Rows[0], "the same rows, not a copy")
}

// One slice over rows whose range tombstones need no clipping is a part of
// the stored partition: restricting allocates nothing.
func TestRestrictOneSliceDoesNotAllocate(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's instrumentation allocates; allocations are checked without it")
	}
	p := five().WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("b"), replica.EndAt("b"), replica.DeletedAt(5, 5)))
	q := replica.Query{Slices: []replica.Slice{slice(replica.StartAt("b"), replica.EndAt("d"))}}
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = p.Restrict(q) }))
	got := p.Restrict(q)
	assert.Same(t, &p.Rows[1], &got.Rows[0])
}
