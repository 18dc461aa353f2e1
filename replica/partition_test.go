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

func TestWithDeletionAndIsEmpty(t *testing.T) {
	d := replica.DeletedAt(5, 6)
	assert.True(t, replica.NewPartition("k").IsEmpty())
	assert.False(t, replica.NewPartition("k").WithDeletion(d).IsEmpty())
	assert.False(t, replica.NewPartition("k", replica.NewRow("r")).IsEmpty())
	assert.Equal(t, d, replica.NewPartition("k").WithDeletion(d).Deletion)

	assert.True(t, replica.NewRow("r").IsEmpty())
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

// scribble overwrites every byte and field reachable from p in place.
func scribble(p *replica.Partition) {
	for i := range p.Rows {
		p.Rows[i].Clustering += "!"
		p.Rows[i].Deletion.MarkedForDeleteAt++
		for j := range p.Rows[i].Cells {
			c := &p.Rows[i].Cells[j]
			c.Column, c.Timestamp, c.Tombstone = c.Column+"!", c.Timestamp+1, !c.Tombstone
			for k := range c.Value {
				c.Value[k] ^= 0xff
			}
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

func clusterings(p replica.Partition) []string {
	var keys []string
	for _, r := range p.Rows {
		keys = append(keys, r.Clustering)
	}
	return keys
}
