package coordinator

import "sync"

// panicked carries a panic from ReadMany's goroutines to its caller. A
// panic of the caller's own code (a Locator, a Liveness) reaches the caller
// of Read as it is; raised on a goroutine ReadMany started, it would end
// the process instead, where nobody could recover it.
type panicked struct {
	once  sync.Once
	value any
	set   bool
}

// catch, deferred by a goroutine, keeps the first panic and calls stop,
// which keeps the other goroutines from reading more keys.
func (p *panicked) catch(stop func()) {
	if v := recover(); v != nil {
		p.once.Do(func() { p.value, p.set = v, true })
		stop()
	}
}

// raise panics again with the panic caught, if any, once every goroutine
// has returned.
func (p *panicked) raise() {
	if p.set {
		panic(p.value)
	}
}
