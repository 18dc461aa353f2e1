package coordinator

// A panic of the caller's own code (a Locator, a Liveness) reaches the
// caller of Read as it is; raised on a goroutine ReadMany started, it
// would end the process instead, where nobody could recover it. So the
// page carries it to ReadMany's caller.

// catch, deferred by each of ReadMany's goroutines, keeps the first panic,
// and ends the page: the other goroutines take no more keys, and the reads
// of a page are cancelled.
func (f *pageFill) catch() {
	if v := recover(); v != nil {
		f.panicOnce.Do(func() { f.panicked = v })
		f.enough.Store(true)
		f.stop()
	}
}

// raise panics again with the panic caught, if any, once every goroutine
// has returned.
func (f *pageFill) raise() {
	if f.panicked != nil {
		panic(f.panicked)
	}
}
