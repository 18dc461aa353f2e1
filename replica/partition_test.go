package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

func TestNewPartitionSortsRowsStably(t *testing.T) {
	first, second := replica.NewRow("b", replica.Live("c", "1", 1)), replica.NewRow("b", replica.Live("c", "2", 1))
	rows := []replica.Row{replica.NewRow("c"), first, replica.NewRow("a"), second}
	p := replica.NewPartition("k", rows...)
	require.Len(t, p.Rows, 4)
	assert.Equal(t, []string{"a", "b", "b", "c"}, clusterings(p))
	assert.True(t, p.Rows[1].Equal(first) && p.Rows[2].Equal(second), "equal keys keep their order")
	assert.Equal(t, "c", rows[0].Clustering, "the caller's slice is not reordered")
	assert.True(t, p.Deletion.IsLive())
}

func TestNewRowSortsCellsStably(t *testing.T) {
	cells := []replica.Cell{replica.Live("b", "1", 1), replica.Tombstone("a", 2, 3), replica.Live("b", "2", 1)}
	r := replica.NewRow("r", cells...)
	assert.Equal(t, []replica.Cell{replica.Tombstone("a", 2, 3), replica.Live("b", "1", 1), replica.Live("b", "2", 1)}, r.Cells)
	assert.Equal(t, "b", cells[0].Column, "the caller's slice is not reordered")
	assert.True(t, r.Deletion.IsLive())
}

func TestNewRowSortsCellsByColumnThenPath(t *testing.T) {
	r := replica.NewRow("r", replica.Live("m", "", 1).WithPath("b"), replica.Live("a", "", 1), replica.Live("m", "", 1).WithPath("a"), replica.Live("m", "", 1))
	var keys []string
	for _, c := range r.Cells {
		keys = append(keys, c.Column+"/"+c.Path)
	}
	assert.Equal(t, []string{"a/", "m/", "m/a", "m/b"}, keys)
}

func TestWithComplexDeletionKeepsColumnOrder(t *testing.T) {
	d1, d2 := replica.DeletedAt(1, 1), replica.DeletedAt(2, 2)
	base := replica.NewRow("r").WithComplexDeletion("m", d1)
	r := base.WithComplexDeletion("a", d1).WithComplexDeletion("z", d1).WithComplexDeletion("m", d2)
	assert.Equal(t, []replica.ComplexDeletion{{Column: "a", Deletion: d1}, {Column: "m", Deletion: d2}, {Column: "z", Deletion: d1}}, r.ComplexDeletions)
	assert.Equal(t, []replica.ComplexDeletion{{Column: "m", Deletion: d1}}, base.ComplexDeletions, "the original row is not changed")
}

func TestWithStaticAndRangeTombstones(t *testing.T) {
	p := replica.NewPartition("k").WithStatic(replica.Live("t", "", 1), replica.Live("s", "", 1))
	assert.Equal(t, replica.NewRow("", replica.Live("s", "", 1), replica.Live("t", "", 1)), p.Static)
	d := replica.DeletedAt(1, 1)
	late := replica.NewRangeTombstone(replica.StartAt("c"), replica.Top(), d)
	early := replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore("b"), d)
	rts := []replica.RangeTombstone{late, early}
	p = p.WithRangeTombstones(rts...)
	assert.Equal(t, []replica.RangeTombstone{early, late}, p.RangeTombstones)
	assert.Equal(t, late, rts[0], "the caller's slice is not reordered")
	assert.NoError(t, p.Validate())
}

func TestWithDeletionAndIsEmpty(t *testing.T) {
	d := replica.DeletedAt(5, 6)
	assert.True(t, replica.NewPartition("k").IsEmpty())
	assert.False(t, replica.NewPartition("k").WithDeletion(d).IsEmpty())
	assert.False(t, replica.NewPartition("k", replica.NewRow("r")).IsEmpty())
	assert.Equal(t, d, replica.NewPartition("k").WithDeletion(d).Deletion)

	assert.False(t, replica.NewPartition("k").WithStatic(replica.Live("s", "", 1)).IsEmpty())
	assert.False(t, replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), d)).IsEmpty())

	assert.True(t, replica.NewRow("r").IsEmpty())
	assert.False(t, replica.NewRow("r").WithLiveness(replica.Inserted(1)).IsEmpty())
	assert.False(t, replica.NewRow("r").WithComplexDeletion("m", d).IsEmpty())
	assert.False(t, replica.NewRow("r").WithDeletion(d).IsEmpty())
	assert.False(t, replica.NewRow("r", replica.Tombstone("c", 1, 1)).IsEmpty())
	assert.Equal(t, d, replica.NewRow("r").WithDeletion(d).Deletion)
}

func TestEqualIgnoresNilVersusEmpty(t *testing.T) {
	pairs := []struct{ a, b replica.Partition }{
		{replica.Partition{Key: "k"}, replica.Partition{Key: "k", Rows: []replica.Row{}}},
		{replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "r"}}}, replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "r", Cells: []replica.Cell{}}}}},
		{replica.NewPartition("k", replica.NewRow("r", replica.Live("c", "", 1))), replica.NewPartition("k", replica.NewRow("r", replica.Cell{Column: "c", Timestamp: 1}))},
	}
	for i, tt := range pairs {
		assert.True(t, tt.a.Equal(tt.b), "pair %d", i)
		assert.True(t, tt.b.Equal(tt.a), "pair %d", i)
	}
}

func TestEqualSeesEveryField(t *testing.T) {
	base := sample()
	for name, change := range map[string]func(p *replica.Partition){
		"key":          func(p *replica.Partition) { p.Key = "other" },
		"deletion":     func(p *replica.Partition) { p.Deletion.LocalDeletionTime++ },
		"row count":    func(p *replica.Partition) { p.Rows = p.Rows[:1] },
		"clustering":   func(p *replica.Partition) { p.Rows[0].Clustering = "z" },
		"row deletion": func(p *replica.Partition) { p.Rows[1].Deletion.MarkedForDeleteAt++ },
		"cell count":   func(p *replica.Partition) { p.Rows[0].Cells = p.Rows[0].Cells[1:] },
		"column":       func(p *replica.Partition) { p.Rows[0].Cells[0].Column = "z" },
		"value":        func(p *replica.Partition) { p.Rows[0].Cells[0].Value = []byte("x") },
		"timestamp":    func(p *replica.Partition) { p.Rows[0].Cells[0].Timestamp++ },
		"ttl":          func(p *replica.Partition) { p.Rows[0].Cells[1].TTL++ },
		"cell ldt":     func(p *replica.Partition) { p.Rows[0].Cells[2].LocalDeletionTime++ },
		"tombstone":    func(p *replica.Partition) { p.Rows[0].Cells[2].Tombstone = false },
		"path":         func(p *replica.Partition) { p.Rows[0].Cells[3].Path = "blue" },
		"liveness":     func(p *replica.Partition) { p.Rows[0].Liveness.Timestamp++ },
		"complex":      func(p *replica.Partition) { p.Rows[0].ComplexDeletions[0].Column = "x" },
		"static":       func(p *replica.Partition) { p.Static.Cells[0].Timestamp++ },
		"range":        func(p *replica.Partition) { p.RangeTombstones[0].End = replica.EndAt("z") },
	} {
		p := base.Clone()
		change(&p)
		assert.False(t, p.Equal(base), name)
		assert.False(t, base.Equal(p), name)
	}
}

func TestCloneSharesNoMemory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		before := p.AppendCanonical(nil)
		c := p.Clone()
		require.True(t, c.Equal(p))
		scribble(&c)
		assert.Equal(t, before, p.AppendCanonical(nil), "changing the clone changed the original")
	})
}

// An empty static row built with room to append must not share that room
// with its clone: appends to each would write the same array.
func TestCloneKeepsNoEmptyStaticArray(t *testing.T) {
	p := replica.Partition{Key: "k", Static: replica.Row{
		Cells: make([]replica.Cell, 0, 4), ComplexDeletions: make([]replica.ComplexDeletion, 0, 4)}}
	c := p.Clone()
	require.True(t, c.Equal(p))
	require.NotNil(t, c.Static.Cells, "a non-nil empty slice stays non-nil")
	c.Static.Cells = append(c.Static.Cells, replica.Live("s", "clone", 1))
	c.Static.ComplexDeletions = append(c.Static.ComplexDeletions, replica.ComplexDeletion{Column: "clone"})
	p.Static.Cells = append(p.Static.Cells, replica.Live("s", "original", 2))
	p.Static.ComplexDeletions = append(p.Static.ComplexDeletions, replica.ComplexDeletion{Column: "original"})
	assert.Equal(t, "clone", string(c.Static.Cells[0].Value))
	assert.Equal(t, "clone", c.Static.ComplexDeletions[0].Column)
	assert.Nil(t, replica.Partition{Key: "k"}.Clone().Static.Cells, "a zero static row stays zero")
}

// scribble overwrites every byte and field reachable from p in place.
func scribble(p *replica.Partition) {
	scribbleRow(&p.Static)
	for i := range p.RangeTombstones {
		p.RangeTombstones[i].Deletion.MarkedForDeleteAt++
	}
	for i := range p.Rows {
		scribbleRow(&p.Rows[i])
	}
}

func scribbleRow(r *replica.Row) {
	r.Clustering += "!"
	r.Deletion.MarkedForDeleteAt++
	for i := range r.ComplexDeletions {
		r.ComplexDeletions[i].Column += "!"
	}
	for j := range r.Cells {
		c := &r.Cells[j]
		c.Column, c.Path, c.Timestamp, c.Tombstone = c.Column+"!", c.Path+"!", c.Timestamp+1, !c.Tombstone
		for k := range c.Value {
			c.Value[k] ^= 0xff
		}
	}
}

func TestProject(t *testing.T) {
	p := replica.NewPartition("k",
		replica.NewRow("a", replica.Live("x", "1", 1), replica.Live("y", "2", 1), replica.Live("z", "3", 1)),
		replica.NewRow("b", replica.Live("z", "4", 1)),
		replica.NewRow("c", replica.Live("z", "5", 1)).WithDeletion(replica.DeletedAt(1, 1)),
	).WithDeletion(replica.DeletedAt(0, 7))
	want := replica.NewPartition("k",
		replica.NewRow("a", replica.Live("x", "1", 1), replica.Live("y", "2", 1)),
		replica.NewRow("c").WithDeletion(replica.DeletedAt(1, 1)),
	).WithDeletion(replica.DeletedAt(0, 7))
	before := p.Clone()

	got := p.Project([]string{"y", "x", "absent"})
	assert.True(t, got.Equal(want), "got %+v", got)
	assert.True(t, p.Equal(before), "Project must not change its input")
	assert.True(t, p.Project(nil).Equal(p), "nil keeps every column")
	none := p.Project([]string{})
	assert.True(t, none.Equal(replica.NewPartition("k", replica.NewRow("c").WithDeletion(replica.DeletedAt(1, 1))).WithDeletion(replica.DeletedAt(0, 7))))
}

// Project keeps the selected columns' cells and complex deletions in the
// static row and every row, and what belongs to no column.
func TestProjectNewElements(t *testing.T) {
	d := replica.DeletedAt(1, 1)
	rt := replica.NewRangeTombstone(replica.Bottom(), replica.EndAt("a"), d)
	p := replica.NewPartition("k",
		replica.NewRow("a", replica.Live("m", "", 2).WithPath("x"), replica.Live("z", "", 2)).WithComplexDeletion("m", d).WithComplexDeletion("n", d),
		replica.NewRow("b", replica.Live("z", "", 2)).WithLiveness(replica.Inserted(2)),
		replica.NewRow("c", replica.Live("z", "", 2)).WithComplexDeletion("n", d),
	).WithStatic(replica.Live("m", "", 2).WithPath("y"), replica.Live("s", "", 2)).WithRangeTombstones(rt)
	want := replica.NewPartition("k",
		replica.NewRow("a", replica.Live("m", "", 2).WithPath("x")).WithComplexDeletion("m", d),
		replica.NewRow("b").WithLiveness(replica.Inserted(2)),
	).WithStatic(replica.Live("m", "", 2).WithPath("y")).WithRangeTombstones(rt)
	got := p.Project([]string{"m"})
	assert.True(t, got.Equal(want), "got %v", got)
	assert.NoError(t, got.Validate())
}

func clusterings(p replica.Partition) []string {
	var keys []string
	for _, r := range p.Rows {
		keys = append(keys, r.Clustering)
	}
	return keys
}
