package latency

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// block counts the samples of one octave: subCount buckets, four cache
// lines, allocated by the first sample that needs it.
type block [subCount]atomic.Uint32

// A stripe is one copy of the counters of the current sub-window. Goroutines
// on different cores that add to the same cache line make it travel between
// the cores on about every add, which costs more than the add; so a tracker
// that sees Records contend gives them more stripes to spread over.
//
// A stripe takes 256 bytes, four cache lines, so that it is allocated on a
// line boundary: Records read the block pointers of the first three lines;
// the last holds the words that are written (and, with 8-byte pointers,
// those of octaves above 4 s), so that writing them does not take the
// pointers away from other cores. The pad comes before them, so that with
// 4-byte pointers too they start the last line.
type stripe struct {
	blocks  [numBlocks]atomic.Pointer[block]
	_       [stripePad]byte
	special [numBuckets - regularBuckets]atomic.Uint32 // clamped, negative
	user    atomic.Uintptr                             // see probe
}

const stripePad = 256 - numBlocks*unsafe.Sizeof(atomic.Pointer[block]{}) -
	(numBuckets-regularBuckets)*4 - unsafe.Sizeof(atomic.Uintptr{})

// counter returns the counter of bucket b, or nil if it is clamped or
// negative or its block is not in place yet: see rareCounter. Split so that
// the common case inlines into Record.
func (s *stripe) counter(b int) *atomic.Uint32 {
	if o := b >> subBits; o < numBlocks {
		if blk := s.blocks[o].Load(); blk != nil {
			return &blk[b&(subCount-1)]
		}
	}
	return nil
}

// rareCounter returns the counter of bucket b, any bucket: of a clamped or
// negative sample, or of a bucket whose block it installs first unless a
// concurrent Record did.
func (s *stripe) rareCounter(b int) *atomic.Uint32 {
	if b >= regularBuckets {
		return &s.special[b-regularBuckets]
	}
	o := b >> subBits
	if s.blocks[o].Load() == nil {
		s.blocks[o].CompareAndSwap(nil, new(block))
	}
	return &s.blocks[o].Load()[b&(subCount-1)]
}

// stripeSet is the stripes in use, a power of two of them. A set only
// grows, by replacing it with one that holds its stripes and new ones, so a
// Record that still adds through an old set adds to a stripe of the new one.
type stripeSet struct {
	stripes []*stripe
	shift   uint8         // 64 - log2(len(stripes)): a shift by 64 gives 0
	salt    atomic.Uint64 // odd multiplier that maps stacks to stripes
}

// initialSalt is the first multiplier of every set: Fibonacci hashing's.
const initialSalt = 0x9e3779b97f4a7c15

func newStripeSet(old []*stripe, n int, salt uint64) *stripeSet {
	set := &stripeSet{stripes: make([]*stripe, n), shift: uint8(64 - bits.TrailingZeros(uint(n)))}
	copy(set.stripes, old)
	for i := len(old); i < n; i++ {
		set.stripes[i] = new(stripe)
	}
	set.salt.Store(salt | 1)
	return set
}

// pick returns the stripe of the goroutine whose stack is stack (see
// stackOf): a goroutine keeps its stack, and so its stripe, from one call to
// the next (until the stack grows), at the price of a multiplication rather
// than a random number or a lookup. Which goroutines share a stripe depends
// on where their stacks happen to be, so the tracker watches for contention
// instead of trusting the layout (see contended).
func (set *stripeSet) pick(stack uintptr) *stripe { return set.stripes[set.index(stack)] }

// index returns the stripe of the goroutine whose stack is stack (see
// stackOf).
func (set *stripeSet) index(stack uintptr) uint64 {
	return stripeOf(stack, set.salt.Load(), set.shift)
}

// stripeOf returns the stripe of stack under multiplier salt, in a set
// whose shift is shift.
func stripeOf(stack uintptr, salt uint64, shift uint8) uint64 {
	return uint64(stack) * salt >> shift
}

// stackOf returns an identity of the calling goroutine: its stack, in units
// of stackGrain.
func stackOf() uintptr {
	var onStack byte
	return uintptr(unsafe.Pointer(&onStack)) >> stackGrain
}

// stackGrain drops the address bits below the smallest stack, 2 KiB, which
// vary with the depth of the call rather than with the goroutine.
const stackGrain = 11

// firstStripe installs the first stripe set, of one stripe.
func (t *Tracker) firstStripe() *stripeSet {
	t.set.CompareAndSwap(nil, newStripeSet(nil, 1, initialSalt))
	return t.set.Load()
}
