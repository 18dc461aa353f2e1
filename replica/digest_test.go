package replica_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// sample has one of everything a digest covers: a partition deletion, a
// static row, a range tombstone, row liveness, a row deletion, a complex
// deletion, live, expiring, tombstone and complex cells.
func sample() replica.Partition {
	return replica.NewPartition("user:42",
		replica.NewRow("a",
			replica.Live("email", "ada@example.com", 10),
			replica.Expiring("name", "Ada", 11, 60, 1000),
			replica.Tombstone("phone", 12, 500),
			replica.Live("tags", "", 13).WithPath("red"),
		).WithLiveness(replica.Inserted(9)).WithComplexDeletion("tags", replica.DeletedAt(12, 400)),
		replica.NewRow("b", replica.Live("email", "bob@example.com", 13)).WithDeletion(replica.DeletedAt(5, 400)),
	).WithDeletion(replica.DeletedAt(1, 100)).
		WithStatic(replica.Live("plan", "free", 3)).
		WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("b"), replica.Top(), replica.DeletedAt(7, 300)))
}

// v1Sample is sample without what version 1 cannot express.
func v1Sample() replica.Partition {
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
		assert.Equal(t, digest.V2, enc[0])
		assert.Equal(t, digest.Hash(enc), p.Digest())
		decoded, err := decodeCanonical(enc)
		require.NoError(t, err)
		assert.True(t, decoded.Equal(withLargeStandIns(p)), "decoded %v", decoded)
	})
}

func TestDigestAtVersion1(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := v1PartitionGen().Draw(t, "p")
		enc, err := p.AppendCanonicalAt(nil, digest.V1)
		require.NoError(t, err)
		assert.Equal(t, digest.V1, enc[0])
		d, err := p.DigestAt(digest.V1)
		require.NoError(t, err)
		assert.Equal(t, digest.Hash(enc), d)
		decoded, err := decodeCanonical(enc)
		require.NoError(t, err)
		assert.True(t, decoded.Equal(withLargeStandIns(p)), "decoded %v", decoded)
	})
}

// A partition version 1 cannot express digests at version 1 as it does at
// version 2, which no version-1 encoding can equal: an old replica's
// version-1 digest of what it holds never matches it.
func TestDigestAtVersion1OfWhatItCannotExpressIsVersion2(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		v1, err := p.AppendCanonicalAt(nil, digest.V1)
		require.NoError(t, err)
		d1, err := p.DigestAt(digest.V1)
		require.NoError(t, err)
		assert.Equal(t, digest.Hash(v1), d1)
		if v1[0] == digest.V2 {
			assert.Equal(t, p.Digest(), d1)
			assert.Equal(t, p.AppendCanonical(nil), v1)
		}
	})
	for name, p := range map[string]replica.Partition{
		"static":           replica.NewPartition("k").WithStatic(replica.Live("s", "v", 1)),
		"range tombstone":  replica.NewPartition("k").WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), replica.DeletedAt(1, 1))),
		"liveness":         replica.NewPartition("k", replica.NewRow("r").WithLiveness(replica.Inserted(1))),
		"path":             replica.NewPartition("k", replica.NewRow("r", replica.Live("m", "v", 1).WithPath("k"))),
		"complex deletion": replica.NewPartition("k", replica.NewRow("r").WithComplexDeletion("m", replica.DeletedAt(1, 1))),
	} {
		enc, err := p.AppendCanonicalAt(nil, digest.V1)
		require.NoError(t, err)
		assert.Equal(t, digest.V2, enc[0], name)
	}
}

func TestDigestAtVersionZeroIsTheNewest(t *testing.T) {
	p := sample()
	d, err := p.DigestAt(0)
	require.NoError(t, err)
	assert.Equal(t, p.Digest(), d)
	d, err = p.DigestAt(digest.Latest)
	require.NoError(t, err)
	assert.Equal(t, p.Digest(), d)
	enc, err := p.AppendCanonicalAt([]byte("x"), 0)
	require.NoError(t, err)
	assert.Equal(t, append([]byte("x"), p.AppendCanonical(nil)...), enc)
}

func TestDigestAtAnUnknownVersionFails(t *testing.T) {
	p := sample()
	d, err := p.DigestAt(digest.Latest + 1)
	assert.ErrorIs(t, err, digest.ErrUnknownVersion)
	assert.Equal(t, digest.Digest{}, d)
	enc, err := p.AppendCanonicalAt([]byte("x"), 9)
	var ve *digest.VersionError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, byte(9), ve.Version)
	assert.Equal(t, []byte("x"), enc, "dst comes back unchanged")
}

// withLargeStandIns returns a copy of p in which every field that is
// encoded as its digest is replaced by largeStandIn.
func withLargeStandIns(p replica.Partition) replica.Partition {
	p = p.Clone()
	standIns(&p.Static)
	for i := range p.Rows {
		standIns(&p.Rows[i])
	}
	return p
}

func standIns(r *replica.Row) {
	for j := range r.Cells {
		if c := &r.Cells[j]; len(c.Value) >= digest.LargeField {
			c.Value = largeStandIn(c.Value)
		}
	}
}

func TestDigestIgnoresAllocation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		copies := map[string]replica.Partition{
			"reallocated": reallocate(p, choices(t)),
			"clone":       p.Clone(),
			"rebuilt":     replica.NewPartition(p.Key, p.Rows...).WithDeletion(p.Deletion).WithRangeTombstones(p.RangeTombstones...),
		}
		copies["rebuilt"] = withStatic(copies["rebuilt"], p.Static)
		for name, q := range copies {
			require.True(t, q.Equal(p), name)
			for _, v := range []byte{digest.V1, digest.V2} {
				dp, _ := p.DigestAt(v)
				dq, _ := q.DigestAt(v)
				assert.Equal(t, dp, dq, "%s at version %d", name, v)
			}
			assert.Equal(t, p.AppendCanonical(nil), q.AppendCanonical(nil), name)
		}
	})
}

func withStatic(p replica.Partition, s replica.Row) replica.Partition {
	p.Static = s
	return p
}

func TestDigestIgnoresNilVersusEmpty(t *testing.T) {
	withNils := replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "r", Cells: []replica.Cell{{Column: "c"}}}, {Clustering: "s"}}}
	withEmpties := replica.Partition{Key: "k", RangeTombstones: []replica.RangeTombstone{}, Rows: []replica.Row{
		{Clustering: "r", Cells: []replica.Cell{{Column: "c", Value: []byte{}}}, ComplexDeletions: []replica.ComplexDeletion{}},
		{Clustering: "s", Cells: []replica.Cell{}},
	}}
	for _, v := range []byte{digest.V1, digest.V2} {
		a, _ := withNils.DigestAt(v)
		b, _ := withEmpties.DigestAt(v)
		assert.Equal(t, a, b, "version %d", v)
	}
	noRows, emptyRows := replica.Partition{Key: "k"}, replica.Partition{Key: "k", Rows: []replica.Row{}, Static: replica.Row{Cells: []replica.Cell{}}}
	assert.Equal(t, noRows.Digest(), emptyRows.Digest())
}

// TestDigestChangesWithAnySingleChange changes one thing at a time in
// sample; every result must digest differently from sample and from each
// other.
func TestDigestChangesWithAnySingleChange(t *testing.T) {
	base := sample()
	seen := map[digest.Digest]string{base.Digest(): "sample"}
	for name, change := range singleChanges() {
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

// singleChanges are changes of one field of sample each.
func singleChanges() map[string]func(p *replica.Partition) {
	a := func(p *replica.Partition) *replica.Row { return &p.Rows[0] }
	b := func(p *replica.Partition) *replica.Row { return &p.Rows[1] }
	rt := func(p *replica.Partition) *replica.RangeTombstone { return &p.RangeTombstones[0] }
	return map[string]func(p *replica.Partition){
		"key":                        func(p *replica.Partition) { p.Key = "user:43" },
		"key extended":               func(p *replica.Partition) { p.Key += "\x00" },
		"partition deletion ts":      func(p *replica.Partition) { p.Deletion.MarkedForDeleteAt++ },
		"partition deletion ldt":     func(p *replica.Partition) { p.Deletion.LocalDeletionTime++ },
		"partition deletion removed": func(p *replica.Partition) { p.Deletion = replica.Deletion{} },
		"static removed":             func(p *replica.Partition) { p.Static = replica.Row{} },
		"static cell value":          func(p *replica.Partition) { p.Static.Cells[0].Value = []byte("paid") },
		"static cell moved to a row": func(p *replica.Partition) {
			b(p).Cells = append(b(p).Cells, p.Static.Cells[0])
			p.Static = replica.Row{}
		},
		"range removed":               func(p *replica.Partition) { p.RangeTombstones = nil },
		"range start inclusive":       func(p *replica.Partition) { rt(p).Start = replica.StartAt("b") },
		"range start key":             func(p *replica.Partition) { rt(p).Start.Clustering = "c" },
		"range end":                   func(p *replica.Partition) { rt(p).End = replica.EndAt("z") },
		"range deletion ts":           func(p *replica.Partition) { rt(p).Deletion.MarkedForDeleteAt++ },
		"range deletion ldt":          func(p *replica.Partition) { rt(p).Deletion.LocalDeletionTime++ },
		"clustering":                  func(p *replica.Partition) { a(p).Clustering = "A" },
		"liveness ts":                 func(p *replica.Partition) { a(p).Liveness.Timestamp++ },
		"liveness ttl":                func(p *replica.Partition) { a(p).Liveness = replica.InsertedWithTTL(9, 5, 900) },
		"liveness removed":            func(p *replica.Partition) { a(p).Liveness = replica.Liveness{} },
		"liveness added":              func(p *replica.Partition) { b(p).Liveness = replica.Inserted(9) },
		"row deletion ts":             func(p *replica.Partition) { b(p).Deletion.MarkedForDeleteAt++ },
		"row deletion ldt":            func(p *replica.Partition) { b(p).Deletion.LocalDeletionTime++ },
		"row deletion removed":        func(p *replica.Partition) { b(p).Deletion = replica.Deletion{} },
		"row deletion added":          func(p *replica.Partition) { a(p).Deletion = replica.DeletedAt(5, 400) },
		"complex deletion ts":         func(p *replica.Partition) { a(p).ComplexDeletions[0].Deletion.MarkedForDeleteAt++ },
		"complex deletion column":     func(p *replica.Partition) { a(p).ComplexDeletions[0].Column = "tag" },
		"complex deletion removed":    func(p *replica.Partition) { a(p).ComplexDeletions = nil },
		"complex deletion moved":      func(p *replica.Partition) { *b(p) = b(p).WithComplexDeletion("tags", replica.DeletedAt(12, 400)) },
		"row removed":                 func(p *replica.Partition) { p.Rows = p.Rows[:1] },
		"empty row added":             func(p *replica.Partition) { p.Rows = append(p.Rows, replica.NewRow("c")) },
		"rows swapped":                func(p *replica.Partition) { p.Rows[0], p.Rows[1] = p.Rows[1], p.Rows[0] },
		"column name":                 func(p *replica.Partition) { a(p).Cells[0].Column = "emails" },
		"path":                        func(p *replica.Partition) { a(p).Cells[3].Path = "blue" },
		"path removed":                func(p *replica.Partition) { a(p).Cells[3].Path = "" },
		"path added":                  func(p *replica.Partition) { a(p).Cells[0].Path = "x" },
		"value byte":                  func(p *replica.Partition) { a(p).Cells[0].Value[0] = 'A' },
		"value emptied":               func(p *replica.Partition) { a(p).Cells[1].Value = nil },
		"value extended":              func(p *replica.Partition) { a(p).Cells[1].Value = []byte("Ada\x00") },
		"timestamp":                   func(p *replica.Partition) { a(p).Cells[0].Timestamp++ },
		"ttl":                         func(p *replica.Partition) { a(p).Cells[1].TTL++ },
		"expiring local deletion":     func(p *replica.Partition) { a(p).Cells[1].LocalDeletionTime++ },
		"tombstone local deletion":    func(p *replica.Partition) { a(p).Cells[2].LocalDeletionTime++ },
		"tombstone flag cleared":      func(p *replica.Partition) { a(p).Cells[2].Tombstone = false },
		"tombstone flag set":          func(p *replica.Partition) { b(p).Cells[0].Tombstone = true },
		"cell removed":                func(p *replica.Partition) { a(p).Cells = a(p).Cells[:3] },
		"cell added":                  func(p *replica.Partition) { b(p).Cells = append(b(p).Cells, replica.Live("z", "", 0)) },
		"cell moved to the next row":  func(p *replica.Partition) { moveLastCell(p, 0, 1) },
		"cell moved to the first row": func(p *replica.Partition) { moveLastCell(p, 1, 0) },
	}
}

// TestDigestAtVersion1ChangesWithAnySingleChange does the same at version 1
// for v1Sample.
func TestDigestAtVersion1ChangesWithAnySingleChange(t *testing.T) {
	base := v1Sample()
	d0, _ := base.DigestAt(digest.V1)
	seen := map[digest.Digest]string{d0: "sample"}
	for name, change := range map[string]func(p *replica.Partition){
		"key":                    func(p *replica.Partition) { p.Key = "user:43" },
		"partition deletion ts":  func(p *replica.Partition) { p.Deletion.MarkedForDeleteAt++ },
		"partition deletion ldt": func(p *replica.Partition) { p.Deletion.LocalDeletionTime++ },
		"row deletion":           func(p *replica.Partition) { p.Rows[1].Deletion = replica.Deletion{} },
		"value":                  func(p *replica.Partition) { p.Rows[0].Cells[0].Value = []byte("x") },
		"ttl":                    func(p *replica.Partition) { p.Rows[0].Cells[1].TTL++ },
		"tombstone":              func(p *replica.Partition) { p.Rows[0].Cells[2].Tombstone = false },
		"cell moved":             func(p *replica.Partition) { moveLastCell(p, 0, 1) },
	} {
		p := base.Clone()
		change(&p)
		d, err := p.DigestAt(digest.V1)
		require.NoError(t, err)
		if other, dup := seen[d]; dup {
			t.Errorf("%s digests like %s: %s", name, other, d)
		}
		seen[d] = name
	}
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
	part := replica.NewPartition
	pairs := []struct {
		name string
		a, b replica.Partition
	}{
		{"key into clustering", part("ab", row("c", c)), part("a", row("bc", c))},
		{"clustering into column", part("k", row("ab", replica.Live("c", "v", 1))), part("k", row("a", replica.Live("bc", "v", 1)))},
		{"column into value", part("k", row("r", replica.Live("ab", "c", 1))), part("k", row("r", replica.Live("a", "bc", 1)))},
		{"column into path", part("k", row("r", replica.Live("ab", "v", 1))), part("k", row("r", replica.Live("a", "v", 1).WithPath("b")))},
		{"path into value", part("k", row("r", replica.Live("m", "bc", 1).WithPath("a"))), part("k", row("r", replica.Live("m", "c", 1).WithPath("ab")))},
		{"key into empty row", part("ab"), part("a", row("b"))},
		{"cells across rows", part("k", row("r", c, replica.Live("d", "v", 1)), row("s")), part("k", row("r", c), row("s", replica.Live("d", "v", 1)))},
		{"static cell or row cell", part("k", row("", c)), part("k").WithStatic(c)},
		{"empty value or tombstone", part("k", row("r", replica.Live("c", "", 1))), part("k", row("r", replica.Tombstone("c", 1, 0)))},
		{"empty row or none", part(""), part("", row(""))},
		{"empty cell or none", part("", row("")), part("", row("", replica.Live("", "", 0)))},
		{"bound key into the next", part("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("ab"), replica.EndAt("c"), replica.DeletedAt(1, 1))),
			part("k").WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.EndAt("bc"), replica.DeletedAt(1, 1)))},
		{"row deletion or complex deletion", part("k", row("r").WithDeletion(replica.DeletedAt(1, 1))), part("k", row("r").WithComplexDeletion("", replica.DeletedAt(1, 1)))},
	}
	for _, tt := range pairs {
		require.False(t, tt.a.Equal(tt.b), tt.name)
		for _, v := range []byte{digest.V1, digest.V2} {
			ea, _ := tt.a.AppendCanonicalAt(nil, v)
			eb, _ := tt.b.AppendCanonicalAt(nil, v)
			assert.NotEqual(t, ea, eb, "%s at version %d", tt.name, v)
		}
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
		"sample":      sample(),
	} {
		for _, v := range []byte{digest.V1, digest.V2} {
			var d digest.Digest
			assert.Zero(t, testing.AllocsPerRun(20, func() { d, _ = p.DigestAt(v) }), "%s at version %d", name, v)
			enc, _ := p.AppendCanonicalAt(nil, v)
			assert.Equal(t, digest.Hash(enc), d, name)
		}
		assert.Zero(t, testing.AllocsPerRun(20, func() { _ = p.Digest() }), name)
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

// The rooms the encoders take hold the widest fields, wherever in the
// encoder's buffer a piece falls: were one short, an append would move to
// the heap. Every optional field is set and every string or value is up to
// the longest written whole, the length drawn for each.
func TestDigestRoomsHoldTheWidestFields(t *testing.T) {
	race.SkipPooledAllocs(t)
	rng := rand.New(rand.NewPCG(1, 2))
	length := func() int { // the longest half the time
		if rng.IntN(2) == 0 {
			return digest.LargeField - 1
		}
		return rng.IntN(digest.LargeField)
	}
	for i := range 200 {
		v1 := i%2 == 1
		p := widest(v1, length)
		var d digest.Digest
		require.Zero(t, testing.AllocsPerRun(2, func() { d = p.Digest() }), "partition %d", i)
		want := p.AppendCanonical(nil)
		if v1 {
			require.Zero(t, testing.AllocsPerRun(2, func() { d, _ = p.DigestAt(digest.V1) }), "partition %d", i)
			want, _ = p.AppendCanonicalAt(nil, digest.V1)
		}
		require.Equal(t, digest.Hash(want), d)
	}
}

// widest returns a partition of 10 rows of three cells with every optional
// field set, or, if v1, those that version 1 encodes, each string and value
// of length() bytes.
func widest(v1 bool, length func() int) replica.Partition {
	long := func() string { return strings.Repeat("x", length()) }
	del := replica.DeletedAt(5, 6)
	cell := func() replica.Cell {
		c := replica.Cell{Column: long(), Value: []byte(long()), Timestamp: 7, TTL: 8, LocalDeletionTime: 9}
		if !v1 {
			c.Path = long()
		}
		return c
	}
	row := func() replica.Row {
		r := replica.Row{Clustering: long(), Deletion: del, Cells: []replica.Cell{cell(), cell(), cell()}}
		if !v1 {
			r.Liveness = replica.Liveness{Timestamp: 1, TTL: 2, ExpiresAt: 3}
			r.ComplexDeletions = []replica.ComplexDeletion{{Column: long(), Deletion: del}, {Column: long(), Deletion: del}}
		}
		return r
	}
	p := replica.Partition{Key: long(), Deletion: del}
	for range 10 {
		p.Rows = append(p.Rows, row())
	}
	if !v1 {
		p.Static = row()
		p.Static.Clustering, p.Static.Liveness, p.Static.Deletion = "", replica.Liveness{}, replica.Deletion{}
		for range 3 {
			p.RangeTombstones = append(p.RangeTombstones, replica.RangeTombstone{
				Start: replica.Bound{Kind: replica.BoundInclusiveStart, Clustering: long()},
				End:   replica.Bound{Kind: replica.BoundExclusiveEnd, Clustering: long()}, Deletion: del})
		}
	}
	return p
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
