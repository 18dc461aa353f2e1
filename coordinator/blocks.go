package coordinator

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// resultBlocks is the memory a mismatch's merge was built in, which the
// read's Result hands back on Release, for a later merge to build in: a
// read that merged 100 rows allocated 136 KB, two thirds of it the merge's
// rows and cells, and writing them into fresh memory was a tenth of its
// time.
type resultBlocks struct {
	repair.Blocks
	// gen counts the releases of the blocks: a Result gives them back
	// only while gen is what it was when the Result got them, so that a
	// copy of a released Result gives back nothing, not the blocks of a
	// later read that now holds them.
	gen atomic.Uint64
	// pool is the index of the pool the blocks go back to: that of the
	// merge they were taken for (see blockPools), or -1 for none.
	pool int
}

// maxPooledBlocks is the most memory, in bytes, that blocks may hold to
// be kept for reuse: the pool keeps what it holds until the collector
// empties it, and merges of thousands of rows are few.
const maxPooledBlocks = 1 << maxPooledBits

const maxPooledBits = 20

// blockPools hold the blocks of released results, for any coordinator's
// next merge, by the size of the merge they were taken for: pool i serves
// merges that build in more than 2^(i-1) bytes and at most 2^i (see
// repair.SizeFor), so a merge gets blocks built for one within twice or
// half its size: it builds in them when they hold what it needs and no more
// than four times that (see repair.Blocks), else in new memory that goes
// back to the pool in their place, so each pool's blocks come to fit the
// largest merges it serves. With one pool, where partitions of ten rows and
// of a thousand were read by turns, a merge mostly got blocks too small or
// too large for it, built in new memory and dropped them: a released result
// saved 2 % of what a read allocated.
var blockPools [maxPooledBits + 1]sync.Pool

// takeBlocks returns the blocks for the read's merge of versions, taken
// from the pool of their size, or nil if the read has taken some already:
// a second merge must not overwrite the first, and gets new memory.
func (r *read) takeBlocks(versions []replica.Partition) *repair.Blocks {
	if r.blocks != nil {
		return nil
	}
	r.blocks = takeBlocks(repair.SizeFor(versions...))
	return &r.blocks.Blocks
}

// takeBlocks returns blocks for a merge that builds in about need bytes,
// from the pool that serves such merges, or new ones if it holds none.
func takeBlocks(need int) *resultBlocks {
	i := bits.Len(uint(max(need, 1) - 1)) // 2^(i-1) < need ≤ 2^i
	if i >= len(blockPools) {
		return &resultBlocks{pool: -1} // too large to keep
	}
	if b, ok := blockPools[i].Get().(*resultBlocks); ok {
		return b
	}
	return &resultBlocks{pool: i}
}

// recycle keeps b for a later merge, in the pool it came from, unless it
// is too large to keep.
func (b *resultBlocks) recycle() {
	if b.pool >= 0 && b.Size() <= maxPooledBlocks {
		blockPools[b.pool].Put(b)
	}
}
