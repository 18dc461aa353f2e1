package latency

// Reading the current sub-window: the lock holder sums the stripes, and a
// rotation moves their counts into a generation. Records keep adding
// meanwhile, so a sum is a moment's view, and every count is moved exactly
// once: an add lands before the swap that takes its counter, or after it.

// totals adds the samples of each block of set to tot, and the clamped
// samples to tot[numBlocks].
func (set *stripeSet) totals(tot *blockTotals) {
	for _, s := range set.stripes {
		for o := range s.blocks {
			if blk := s.blocks[o].Load(); blk != nil {
				tot[o] += blk.sum()
			}
		}
		tot[numBlocks] += uint64(s.special[0].Load())
	}
}

// blockTotals is a count per block, then the clamped samples.
type blockTotals [numBlocks + 1]uint64

// sum returns the samples of the block, reading its four cache lines with
// independent additions.
func (blk *block) sum() uint64 {
	var a, b, c, d uint64
	for i := 0; i < len(blk); i += 4 {
		a += uint64(blk[i].Load())
		b += uint64(blk[i+1].Load())
		c += uint64(blk[i+2].Load())
		d += uint64(blk[i+3].Load())
	}
	return a + b + c + d
}

// addBlock adds the counts of block o of every stripe to c.
func (set *stripeSet) addBlock(o int, c *[subCount]uint64) {
	for _, s := range set.stripes {
		if blk := s.blocks[o].Load(); blk != nil {
			for i := range blk {
				c[i] += uint64(blk[i].Load())
			}
		}
	}
}

// special returns the clamped (i = 0) or negative (i = 1) samples.
func (set *stripeSet) special(i int) uint64 {
	var n uint64
	for _, s := range set.stripes {
		n += uint64(s.special[i].Load())
	}
	return n
}

// drain moves every count of set into g, leaving zeros.
func (set *stripeSet) drain(g *generation) {
	for o := range numBlocks {
		var c [subCount]uint32
		if set.drainBlock(o, &c) {
			g.add(o, &c)
		}
	}
	for i := range g.special {
		for _, s := range set.stripes {
			g.special[i] += uint64(s.special[i].Swap(0))
		}
	}
}

// drainBlock moves the counts of block o of every stripe into c, and reports
// whether there were any. It swaps only counters that hold some, since a
// swap is a locked instruction and most counters of most blocks are zero.
func (set *stripeSet) drainBlock(o int, c *[subCount]uint32) bool {
	found := false
	for _, s := range set.stripes {
		blk := s.blocks[o].Load()
		if blk == nil {
			continue
		}
		for i := range blk {
			if blk[i].Load() != 0 {
				c[i] += blk[i].Swap(0)
				found = true
			}
		}
	}
	return found
}
