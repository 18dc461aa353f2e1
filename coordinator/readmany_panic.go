package coordinator

import "runtime"

// A panic of the caller's own code (a Locator, a Liveness) reaches the
// caller of Read as it is; raised on a goroutine ReadMany started, it
// would end the process instead, where nobody could recover it. So the
// page carries it to ReadMany's caller.

// catch, deferred by each of ReadMany's goroutines, keeps the first panic,
// or notes a goroutine that ended without returning or panicking (its
// read called runtime.Goexit, which recover does not see), and ends the
// page: the other goroutines take no more keys, and the reads of a page
// are cancelled. Unnoticed, a Goexit left its key, and the keys it would
// have taken, as successes that read nothing.
func (f *pageFill) catch(returned *bool) {
	v := recover()
	switch {
	case v != nil:
		f.panicOnce.Do(func() { f.panicked = v })
	case *returned:
		return
	default:
		f.exited.Store(true)
	}
	f.mu.Lock()
	f.enough.Store(true)
	f.mu.Unlock()
	f.moved.Broadcast()
	f.stop()
}

// raise panics again with the panic caught, if any, once every goroutine
// has returned; or, after a Goexit, ends the caller's goroutine as well.
func (f *pageFill) raise() {
	if f.panicked != nil {
		panic(f.panicked)
	}
	if f.exited.Load() {
		runtime.Goexit()
	}
}
