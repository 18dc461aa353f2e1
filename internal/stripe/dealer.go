package stripe

import (
	"sync/atomic"
	"unsafe"
)

// Stack returns an identity of the calling goroutine: its stack, in units
// of the smallest stack (2 KiB), which vary with the goroutine rather than
// with the depth of the call. A goroutine keeps it from one call to the
// next at the same depth, until its stack grows.
func Stack() uintptr {
	var onStack byte
	return uintptr(unsafe.Pointer(&onStack)) >> 11
}

// Dealer deals goroutines out over the N stripes by their stacks (see
// Stack), and deals them anew when told that two share a stripe. Which
// goroutines share one depends on where their stacks happen to be: two
// long-lived goroutines that do were stuck together for their lives (a
// parallel benchmark's two readers took 1.5 times as long a read in one
// run of four). The zero Dealer folds the stack as Of does. A Dealer is
// safe for concurrent use.
type Dealer struct {
	salt atomic.Uint64 // 0: Of's fold; else an odd multiplier
}

// Of returns the stripe of the goroutine whose stack is stack.
func (d *Dealer) Of(stack uintptr) int {
	if m := d.salt.Load(); m != 0 {
		return dealt(stack, m)
	}
	return fold(uint64(stack))
}

// dealt is the stripe of stack under multiplier m: the product's top bits,
// which every bit of the stack moves.
func dealt(stack uintptr, m uint64) int { return int(uint64(stack) * m >> (64 - Bits)) }

// Separate deals the goroutines anew so that those whose stacks are a and b
// are on different stripes, unless a and b are equal: it moves to the next
// multiplier that does, each of which does with a probability of 7 in 8.
// Goroutines on other stripes may move too, which only costs a cache line
// each; one that keeps moving others' stripes has too many goroutines
// taking turns on too few cores for any dealing to keep them apart.
func (d *Dealer) Separate(a, b uintptr) {
	if a == b {
		return
	}
	old := d.salt.Load()
	m := old
	for range 64 {
		m = nextSalt(m)
		if dealt(a, m) != dealt(b, m) {
			break
		}
	}
	d.salt.CompareAndSwap(old, m) // a concurrent deal stands
}

// nextSalt returns another odd multiplier, by a step of SplitMix64.
func nextSalt(s uint64) uint64 {
	z := s + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return (z ^ z>>31) | 1
}

// AddAt adds v to stripe i, which callers take from a Dealer: the add and
// its undo go to the same stripe.
func (c *Int64) AddAt(i int, v int64) { c.s[i%N].v.Add(v) }
