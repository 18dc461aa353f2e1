package coordinator

// requestStack is the stack a request goroutine grows to before it calls
// its replica. A goroutine starts with 2 KiB of stack; a replica's Read
// needs more, and the runtime grows a stack by copying it, walking every
// frame on it, so the deeper the call that overflows, the dearer the copy:
// on the read path that was a third of a quick read's time. Growing once,
// at the top of the goroutine where the stack holds three frames, makes
// the copy cheap. (CockroachDB does the same for its storage goroutines.)
// A worker grows its stack once, when it starts, and keeps it between
// requests unless the garbage collector shrinks it while it is idle.
const requestStack = 8 << 10

// growPad is the frame that makes the runtime grow a fresh stack to
// requestStack in one step: a frame that cannot fit in half of it.
const growPad = requestStack/2 + 1

// growStack grows the calling goroutine's stack to requestStack, unless it
// is that big already.
//
//go:noinline
func growStack() {
	var pad [growPad]byte
	touch(pad[:])
}

// touch keeps the pad, and so the frame, from being optimised away.
//
//go:noinline
func touch(b []byte) byte { return b[len(b)-1] }

// readStack is the stack a goroutine of ReadMany grows to before its
// first read: a read's planning and rounds run deeper than a replica's
// call from a worker, and grew an 8 KiB stack again, by a copy deep in
// planning.
const readStack = 16 << 10

// growReadStack grows the calling goroutine's stack to readStack, unless
// it is that big already.
//
//go:noinline
func growReadStack() {
	var pad [readStack/2 + 1]byte
	touch(pad[:])
}
