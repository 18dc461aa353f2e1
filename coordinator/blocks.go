package coordinator

import (
	"sync"
	"sync/atomic"

	"github.com/readpath/readpath/repair"
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
}

// maxPooledBlocks is the most memory, in bytes, that blocks may hold to
// be kept for reuse: the pool keeps what it holds until the collector
// empties it, and merges of thousands of rows are few.
const maxPooledBlocks = 1 << 20

// blockPool holds the blocks of released results, for any coordinator's
// next merge.
var blockPool sync.Pool

// takeBlocks returns the blocks for the read's merge, taken from the pool,
// or nil if the read has taken some already: a second merge must not
// overwrite the first, and gets new memory.
func (r *read) takeBlocks() *repair.Blocks {
	if r.blocks != nil {
		return nil
	}
	r.blocks = takeBlocks()
	return &r.blocks.Blocks
}

func takeBlocks() *resultBlocks {
	if b, ok := blockPool.Get().(*resultBlocks); ok {
		return b
	}
	return new(resultBlocks)
}

// recycle keeps b for a later merge, unless it is too large to keep.
func (b *resultBlocks) recycle() {
	if b.Size() <= maxPooledBlocks {
		blockPool.Put(b)
	}
}
