package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// The purge returns the rows and range tombstones it leaves as they are
// (sharing them), and rebuilds the others exactly as it did when it
// rebuilt every row: the same partition, whether or not it also drops
// what its deletions cover (as Respond does).
func TestPurgeSharesOnlyWhatItLeavesAlone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		now, gc := readTimeGen(t)
		dropCovered := rapid.Bool().Draw(t, "dropCovered")
		before := p.Clone()
		got := replica.PurgeAll(p, now, gc, dropCovered)
		want := replica.PurgeEveryRow(p, now, gc, dropCovered)
		if !got.Equal(want) {
			t.Fatalf("purge at %d, gc before %d (drop covered: %v):\n got  %v\n want %v", now, gc, dropCovered, got, want)
		}
		if !p.Equal(before) {
			t.Fatalf("the purge modified its input")
		}
	})
}

// A read of a 100-row partition in which one cell has expired allocates
// for that row (and the answer's row list), not for each of the 100, as it
// did when the purge rebuilt every row; the other rows are the stored
// ones. Cassandra keeps an expired cell as a tombstone for gc grace, ten
// days by default, so in a table with TTLs most reads meet one.
func TestRespondRebuildsOnlyThePurgedRows(t *testing.T) {
	race.SkipPooledAllocs(t)
	const rows, now = 100, 1_700_000_000
	p := tenCellRows(rows)
	p.Rows[40].Cells[3] = replica.Expiring("c3", "v", 1000, 60, now-10) // expired 10 s ago: now a tombstone
	require.NoError(t, p.Validate())
	cmd := replica.Command{Key: "k", NowInSec: now, GCBefore: now - 864000}
	resp, err := cmd.Respond(p)
	require.NoError(t, err)
	require.Len(t, resp.Partition.Rows, rows)
	for i := range rows {
		if i == 40 {
			assert.True(t, resp.Partition.Rows[i].Cells[3].Tombstone, "the expired cell answers as a tombstone")
			continue
		}
		assert.Same(t, &p.Rows[i].Cells[0], &resp.Partition.Rows[i].Cells[0], "row %d shared", i)
	}
	assert.LessOrEqual(t, testing.AllocsPerRun(20, func() { _, _ = cmd.Respond(p) }), 3.0)
}
