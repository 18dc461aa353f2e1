package latency

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// Packing a block and reading it back gives its counts, at every width, and
// the generation takes the narrowest width that holds them.
func TestGenerationPacksBlocksExactly(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var g generation
		g.reset(7)
		want := map[int][subCount]uint32{}
		for _, o := range rapid.SliceOfNDistinct(rapid.IntRange(0, numBlocks-1), 1, 6, rapid.ID).Draw(t, "blocks") {
			top := rapid.SampledFrom([]uint32{1, 255, 256, 65535, 65536, 1<<32 - 1}).Draw(t, "top")
			var c [subCount]uint32
			for i := range c {
				c[i] = rapid.Uint32Range(0, top).Draw(t, "count")
			}
			c[rapid.IntRange(0, subCount-1).Draw(t, "at")] = top
			g.add(o, &c)
			want[o] = c
			wantShift := uint8(2) // four bytes a count
			if top < 1<<16 {
				wantShift = 1
			}
			if top < 1<<8 {
				wantShift = 0
			}
			if p := g.blocks[len(g.blocks)-1]; p.shift != wantShift {
				t.Fatalf("largest count %d packed at %d bytes a count", top, 1<<p.shift)
			}
		}
		var tot blockTotals
		g.totals(&tot)
		for o := range numBlocks {
			var got [subCount]uint64
			g.addBlock(o, &got)
			var sum uint64
			for i, n := range want[o] {
				if got[i] != uint64(n) {
					t.Fatalf("block %d bucket %d: got %d, packed %d", o, i, got[i], n)
				}
				sum += uint64(n)
			}
			if tot[o] != sum {
				t.Fatalf("block %d: total %d, counts sum to %d", o, tot[o], sum)
			}
		}
	})
}

// A reset generation keeps its memory, so that a warmed-up tracker rotates
// without allocating.
func TestGenerationResetKeepsCapacity(t *testing.T) {
	var g generation
	c := [subCount]uint32{3: 1000}
	g.add(5, &c)
	words, blocks := cap(g.words), cap(g.blocks)
	g.reset(9)
	assert.Equal(t, int64(9), g.epoch)
	assert.Empty(t, g.blocks)
	assert.Equal(t, words, cap(g.words))
	assert.Equal(t, blocks, cap(g.blocks))
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		g.reset(10)
		g.add(5, &c)
	}))
}
