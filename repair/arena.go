package repair

// minBlock is the size of an arena's first block when no hint is given.
const minBlock = 64

// arena hands out slices carved from a few large blocks, so that building a
// partition allocates O(log n) times for n cells or value bytes instead of
// once per row and per value. The elements added since the last seal form
// the next slice; they stay contiguous because growing moves them along.
// Sealed slices are capped, so appending to one reallocates it instead of
// overwriting its neighbour.
type arena[T any] struct {
	block []T
	mark  int // block[mark:] is the group being added
	hint  int // the size of the first block; minBlock if 0
}

// next appends a zero element to the current group and returns it.
func (a *arena[T]) next() *T {
	if len(a.block) == cap(a.block) {
		a.grow(1)
	}
	a.block = a.block[:len(a.block)+1]
	return &a.block[len(a.block)-1]
}

// copyOf adds a copy of vs as a group of its own and returns it.
func (a *arena[T]) copyOf(vs []T) []T {
	if cap(a.block)-len(a.block) < len(vs) {
		a.grow(len(vs))
	}
	a.block = append(a.block, vs...)
	return a.seal()
}

// grow moves the current group into a new block with room for n more. The
// first block is the hint's size, even a small one: a merge of a row or
// two, or each round of short-read protection, would otherwise hold
// minBlock cells, 5 KiB, for a few. A hint that fell short grows the
// arena to minBlock at least.
func (a *arena[T]) grow(n int) {
	group := a.block[a.mark:]
	least := minBlock
	if cap(a.block) == 0 && a.hint > 0 {
		least = a.hint
	}
	size := max(2*cap(a.block), len(group)+n, least)
	block := make([]T, len(group), size)
	copy(block, group)
	a.block, a.mark = block, 0
}

// pending returns how many elements were added since the last seal.
func (a *arena[T]) pending() int { return len(a.block) - a.mark }

// seal returns the group added since the last seal, and starts a new one.
func (a *arena[T]) seal() []T {
	end := len(a.block)
	group := a.block[a.mark:end:end]
	a.mark = end
	return group
}
