package coordinator

import "slices"

// frontRoom is an array whose tail holds a slice that grows at its front:
// a reversed read's short-read continuations land before the rows merged
// so far, and slices.Replace moved all of those each round, which made
// such a read quadratic in its rounds. Kept beside the slice, it leaves
// room before it, as append leaves room after.
type frontRoom[T any] struct{ buf []T }

// replace returns s with s[i:j] replaced by v, as slices.Replace does,
// moving what precedes i into the room before s when that is less to
// move than what follows j, so that growth at the front costs what it
// adds, amortized. Growth at the back doubles the array: append grows a
// large one by a quarter, so a forward read's rounds copied the rows
// merged so far four times over, not once. It may modify s; v must not
// overlap s.
func (f *frontRoom[T]) replace(s []T, i, j int, v ...T) []T {
	grow := len(v) - (j - i)
	if grow <= 0 {
		return slices.Replace(s, i, j, v...)
	}
	if i >= len(s)-j {
		if cap(s)-len(s) < grow {
			s = slices.Grow(s, max(grow, len(s)))
		}
		return slices.Replace(s, i, j, v...)
	}
	off := len(f.buf) - len(s)
	if len(s) == 0 || off < grow || &f.buf[off] != &s[0] {
		// No room, or s is not (any longer) the tail of buf: a new array,
		// with as much room before as it holds.
		n := len(s) + grow
		f.buf = make([]T, 2*n)
		out := f.buf[n:]
		copy(out, s[:i])
		copy(out[i:], v)
		copy(out[i+len(v):], s[j:])
		return out
	}
	out := f.buf[off-grow:]
	copy(out, s[:i]) // leftwards: copy handles the overlap
	copy(out[i:], v)
	return out // out[i+len(v):] is s[j:], where it was
}
