package replica_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// sample has one of everything a digest covers: a partition deletion, a row
// deletion, live, expiring and tombstone cells.
func sample() replica.Partition {
	return replica.NewPartition("user:42",
		replica.NewRow("a",
			replica.Live("email", "ada@example.com", 10),
			replica.Expiring("name", "Ada", 11, 60, 1000),
			replica.Tombstone("phone", 12, 500),
		),
		replica.NewRow("b", replica.Live("email", "bob@example.com", 13)).WithDeletion(replica.DeletedAt(5, 400)),
	).WithDeletion(replica.DeletedAt(1, 100))
}

func TestDigestIsTheHashOfTheCanonicalEncoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		enc := p.AppendCanonical(nil)
		assert.Equal(t, digest.Hash(enc), p.Digest())
		decoded, err := decodeCanonical(enc)
		require.NoError(t, err)
		assert.True(t, decoded.Equal(withLargeStandIns(p)), "decoded %+v", decoded)
	})
}

// withLargeStandIns returns a copy of p in which every field that is
// encoded as its digest is replaced by largeStandIn.
func withLargeStandIns(p replica.Partition) replica.Partition {
	p = p.Clone()
	for i := range p.Rows {
		for j := range p.Rows[i].Cells {
			if c := &p.Rows[i].Cells[j]; len(c.Value) >= digest.LargeField {
				c.Value = largeStandIn(c.Value)
			}
		}
	}
	return p
}

func TestDigestIgnoresAllocation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		copies := map[string]replica.Partition{
			"reallocated": reallocate(p, choices(t)),
			"clone":       p.Clone(),
			"rebuilt":     replica.NewPartition(p.Key, p.Rows...).WithDeletion(p.Deletion),
		}
		for name, q := range copies {
			require.True(t, q.Equal(p), name)
			assert.Equal(t, p.Digest(), q.Digest(), name)
			assert.Equal(t, p.AppendCanonical(nil), q.AppendCanonical(nil), name)
		}
	})
}

func TestDigestIgnoresNilVersusEmpty(t *testing.T) {
	withNils := replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "r", Cells: []replica.Cell{{Column: "c"}}}, {Clustering: "s"}}}
	withEmpties := replica.Partition{Key: "k", Rows: []replica.Row{
		{Clustering: "r", Cells: []replica.Cell{{Column: "c", Value: []byte{}}}},
		{Clustering: "s", Cells: []replica.Cell{}},
	}}
	assert.Equal(t, withNils.Digest(), withEmpties.Digest())
	noRows, emptyRows := replica.Partition{Key: "k"}, replica.Partition{Key: "k", Rows: []replica.Row{}}
	assert.Equal(t, noRows.Digest(), emptyRows.Digest())
}

// TestDigestChangesWithAnySingleChange changes one thing at a time in
// sample; every result must digest differently from sample and from each
// other.
func TestDigestChangesWithAnySingleChange(t *testing.T) {
	changes := map[string]func(p *replica.Partition){
		"key":                         func(p *replica.Partition) { p.Key = "user:43" },
		"key extended":                func(p *replica.Partition) { p.Key += "\x00" },
		"partition deletion ts":       func(p *replica.Partition) { p.Deletion.MarkedForDeleteAt++ },
		"partition deletion ldt":      func(p *replica.Partition) { p.Deletion.LocalDeletionTime++ },
		"partition deletion removed":  func(p *replica.Partition) { p.Deletion = replica.Deletion{} },
		"clustering":                  func(p *replica.Partition) { p.Rows[0].Clustering = "A" },
		"row deletion ts":             func(p *replica.Partition) { p.Rows[1].Deletion.MarkedForDeleteAt++ },
		"row deletion ldt":            func(p *replica.Partition) { p.Rows[1].Deletion.LocalDeletionTime++ },
		"row deletion removed":        func(p *replica.Partition) { p.Rows[1].Deletion = replica.Deletion{} },
		"row deletion added":          func(p *replica.Partition) { p.Rows[0].Deletion = replica.DeletedAt(5, 400) },
		"row removed":                 func(p *replica.Partition) { p.Rows = p.Rows[:1] },
		"empty row added":             func(p *replica.Partition) { p.Rows = append(p.Rows, replica.NewRow("c")) },
		"rows swapped":                func(p *replica.Partition) { p.Rows[0], p.Rows[1] = p.Rows[1], p.Rows[0] },
		"column name":                 func(p *replica.Partition) { p.Rows[0].Cells[0].Column = "emails" },
		"value byte":                  func(p *replica.Partition) { p.Rows[0].Cells[0].Value[0] = 'A' },
		"value emptied":               func(p *replica.Partition) { p.Rows[0].Cells[1].Value = nil },
		"value extended":              func(p *replica.Partition) { p.Rows[0].Cells[1].Value = []byte("Ada\x00") },
		"timestamp":                   func(p *replica.Partition) { p.Rows[0].Cells[0].Timestamp++ },
		"ttl":                         func(p *replica.Partition) { p.Rows[0].Cells[1].TTL++ },
		"expiring local deletion":     func(p *replica.Partition) { p.Rows[0].Cells[1].LocalDeletionTime++ },
		"tombstone local deletion":    func(p *replica.Partition) { p.Rows[0].Cells[2].LocalDeletionTime++ },
		"tombstone flag cleared":      func(p *replica.Partition) { p.Rows[0].Cells[2].Tombstone = false },
		"tombstone flag set":          func(p *replica.Partition) { p.Rows[1].Cells[0].Tombstone = true },
		"cell removed":                func(p *replica.Partition) { p.Rows[0].Cells = p.Rows[0].Cells[:2] },
		"cell added":                  func(p *replica.Partition) { p.Rows[1].Cells = append(p.Rows[1].Cells, replica.Live("z", "", 0)) },
		"cell moved to the next row":  func(p *replica.Partition) { moveLastCell(p, 0, 1) },
		"cell moved to the first row": func(p *replica.Partition) { moveLastCell(p, 1, 0) },
	}
	base := sample()
	seen := map[digest.Digest]string{base.Digest(): "sample"}
	for name, change := range changes {
		p := base.Clone()
		change(&p)
		require.False(t, p.Equal(base), name)
		d := p.Digest()
		if other, dup := seen[d]; dup {
			t.Errorf("%s digests like %s: %s", name, other, d)
		}
		seen[d] = name
	}
	assert.True(t, base.Equal(sample()), "changes were made to clones")
}

func moveLastCell(p *replica.Partition, from, to int) {
	cells := p.Rows[from].Cells
	p.Rows[to].Cells = append(p.Rows[to].Cells, cells[len(cells)-1])
	p.Rows[from].Cells = cells[:len(cells)-1]
}

// TestDigestSeesShiftedBoundaries pairs partitions whose fields, run
// together, spell the same bytes.
func TestDigestSeesShiftedBoundaries(t *testing.T) {
	row := func(clustering string, cells ...replica.Cell) replica.Row {
		return replica.NewRow(clustering, cells...)
	}
	c := replica.Live("c", "v", 1)
	pairs := []struct {
		name string
		a, b replica.Partition
	}{
		{"key into clustering", replica.NewPartition("ab", row("c", c)), replica.NewPartition("a", row("bc", c))},
		{"clustering into column", replica.NewPartition("k", row("ab", replica.Live("c", "v", 1))), replica.NewPartition("k", row("a", replica.Live("bc", "v", 1)))},
		{"column into value", replica.NewPartition("k", row("r", replica.Live("ab", "c", 1))), replica.NewPartition("k", row("r", replica.Live("a", "bc", 1)))},
		{"key into empty row", replica.NewPartition("ab"), replica.NewPartition("a", row("b"))},
		{"cells across rows", replica.NewPartition("k", row("r", c, replica.Live("d", "v", 1)), row("s")), replica.NewPartition("k", row("r", c), row("s", replica.Live("d", "v", 1)))},
		{"empty value or tombstone", replica.NewPartition("k", row("r", replica.Live("c", "", 1))), replica.NewPartition("k", row("r", replica.Tombstone("c", 1, 0)))},
		{"empty row or none", replica.NewPartition(""), replica.NewPartition("", row(""))},
		{"empty cell or none", replica.NewPartition("", row("")), replica.NewPartition("", row("", replica.Live("", "", 0)))},
	}
	for _, tt := range pairs {
		require.False(t, tt.a.Equal(tt.b), tt.name)
		assert.NotEqual(t, tt.a.AppendCanonical(nil), tt.b.AppendCanonical(nil), tt.name)
		assert.NotEqual(t, tt.a.Digest(), tt.b.Digest(), tt.name)
	}
}

func TestAppendCanonicalAppends(t *testing.T) {
	p := sample()
	dst := append(make([]byte, 0, 512), "prefix"...)
	got := p.AppendCanonical(dst)
	assert.Equal(t, "prefix", string(got[:6]))
	assert.Equal(t, p.AppendCanonical(nil), got[6:])
	assert.Same(t, &dst[0], &got[0], "spare capacity is used")
}

func TestDigestDoesNotAllocate(t *testing.T) {
	race.SkipPooledAllocs(t)
	for name, p := range map[string]replica.Partition{
		"empty":       {},
		"4KiB value":  rowsOfCells(1, 1, 4<<10),
		"3x3":         rowsOfCells(3, 3, 8),
		"large cells": rowsOfCells(2, 4, digest.LargeField),
	} {
		var d digest.Digest
		assert.Zero(t, testing.AllocsPerRun(20, func() { d = p.Digest() }), name)
		assert.Equal(t, digest.Hash(p.AppendCanonical(nil)), d, name)
	}
}

// A partition whose encoding outgrows the encoder's buffer is streamed
// through the pooled encoder's hasher: no allocation, however many cells.
func TestDigestOfLongEncodingsDoesNotAllocate(t *testing.T) {
	race.SkipPooledAllocs(t)
	for _, rows := range []int{100, 1000} {
		p := rowsOfCells(rows, 10, 8)
		var d digest.Digest
		assert.Zero(t, testing.AllocsPerRun(5, func() { d = p.Digest() }), "%d rows", rows)
		assert.Equal(t, digest.Hash(p.AppendCanonical(nil)), d)
	}
}

func TestAppendCanonicalDoesNotAllocateWithRoom(t *testing.T) {
	p := rowsOfCells(10, 10, 8)
	dst := make([]byte, 0, 64<<10)
	assert.Zero(t, testing.AllocsPerRun(20, func() { dst = p.AppendCanonical(dst[:0]) }))
}

// rowsOfCells returns a partition of rows×cells live cells with values of
// valueSize bytes.
func rowsOfCells(rows, cells, valueSize int) replica.Partition {
	p := replica.Partition{Key: "partition"}
	for r := range rows {
		row := replica.Row{Clustering: string(rune('a'+r/26)) + string(rune('a'+r%26))}
		for c := range cells {
			row.Cells = append(row.Cells, replica.Cell{Column: string(rune('a' + c)), Value: make([]byte, valueSize), Timestamp: int64(r*cells + c)})
		}
		p.Rows = append(p.Rows, row)
	}
	return p
}
