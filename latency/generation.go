package latency

// A generation holds the counts of one finished sub-window, packed: only its
// non-empty blocks, each at the narrowest width (one, two or four bytes a
// count) that holds its largest count. A finished sub-window is never
// written again, and a bucket of most tables counts fewer than 256 samples
// in a sub-window, so a generation takes about a quarter of the memory of
// the counters it came from. Its slices keep their capacity from one
// sub-window to the next, so that a warmed-up tracker rotates without
// allocating.
//
// Only the holder of the tracker's lock touches a generation.
type generation struct {
	epoch   int64 // the sub-window it holds; noEpoch for none
	special [numBuckets - regularBuckets]uint64
	blocks  []packedBlock // in increasing order of block
	words   []uint32
}

// packedBlock is one block of a generation.
type packedBlock struct {
	block uint8  // which block
	shift uint8  // log2 of the bytes a count takes: 0, 1 or 2
	off   uint32 // index in words of its first count
	total uint64 // its samples
}

// reset empties g to hold epoch.
func (g *generation) reset(epoch int64) {
	*g = generation{epoch: epoch, blocks: g.blocks[:0], words: g.words[:0]}
}

// add appends block o, whose counts are c.
func (g *generation) add(o int, c *[subCount]uint32) {
	var total uint64
	var top uint32
	for _, n := range c {
		total += uint64(n)
		top = max(top, n)
	}
	p := packedBlock{block: uint8(o), shift: widthShift(top), off: uint32(len(g.words)), total: total}
	per, width := p.layout()
	for i := 0; i < subCount; i += per {
		var w uint32
		for j := range per {
			w |= c[i+j] << (uint(j) * width)
		}
		g.words = append(g.words, w)
	}
	g.blocks = append(g.blocks, p)
}

// widthShift returns log2 of the bytes a count up to top needs.
func widthShift(top uint32) uint8 {
	switch {
	case top < 1<<8:
		return 0
	case top < 1<<16:
		return 1
	}
	return 2
}

// layout returns how many counts a word holds, and their width in bits.
func (p packedBlock) layout() (per int, width uint) { return 4 >> p.shift, 8 << p.shift }

// addTo adds the counts of p to c. One loop per width, so that the
// divisions are shifts.
func (g *generation) addTo(p packedBlock, c *[subCount]uint64) {
	words := g.words[p.off:]
	switch p.shift {
	case 0:
		words = words[:subCount/4]
		for i := range c {
			c[i] += uint64(uint8(words[i/4] >> (8 * (i % 4))))
		}
	case 1:
		words = words[:subCount/2]
		for i := range c {
			c[i] += uint64(uint16(words[i/2] >> (16 * (i % 2))))
		}
	default:
		words = words[:subCount]
		for i := range c {
			c[i] += uint64(words[i])
		}
	}
}

// addBlock adds the counts of block o, if g holds it, to c.
func (g *generation) addBlock(o int, c *[subCount]uint64) {
	for _, p := range g.blocks {
		if int(p.block) == o {
			g.addTo(p, c)
			return
		}
	}
}

// totals adds the samples of each block of g to tot, and the clamped ones to
// tot[numBlocks].
func (g *generation) totals(tot *blockTotals) {
	for _, p := range g.blocks {
		tot[p.block] += p.total
	}
	tot[numBlocks] += g.special[0]
}
