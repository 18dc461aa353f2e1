package coordinator

import (
	"runtime/pprof"
	"sync"

	"github.com/readpath/readpath/internal/stripe"
)

// workers runs replica requests on goroutines that are kept between
// requests instead of started for each. A fresh goroutine has a 2 KiB
// stack and must grow it before a replica call fits; a kept one has grown
// already. On a read whose replicas answer at once, starting two
// goroutines and growing their stacks was a third of the read's CPU time.
// (gRPC's server keeps stream workers for the same reason.)
//
// Idle workers wait in LIFO stacks, so the most recently used (with the
// warmest stack) goes first. There is a stack per stripe (see package
// stripe): a reading goroutine takes workers from its own stripe and they
// come back to it, so goroutines reading at once on different cores do not
// share a lock. At most maxIdleWorkers wait in all: a worker that finds
// its stack full exits, so a burst's extra goroutines go with it. A busy
// worker belongs to its replica call alone, so a replica that hangs holds
// one goroutine, as it would without the pool, and runs under the profiler
// labels of its read's context.
type workers struct {
	s [stripe.N]idleWorkers
}

// maxIdleWorkers bounds the goroutines kept waiting: at 2–8 KiB of stack
// each, at most a few MiB.
const maxIdleWorkers = 256

// maxIdlePerStripe bounds the idle workers of one stripe.
const maxIdlePerStripe = maxIdleWorkers / stripe.N

type idleWorkers struct {
	mu     sync.Mutex
	idle   []*worker
	closed bool
	_      [stripe.CacheLine]byte
}

type worker struct {
	home *idleWorkers
	jobs chan *call // room for one: the next job, or closed to stop
}

// run runs k on an idle worker of stripe st, the read's, or on a new one.
// A read's requests past a stripe's room go to the next stripes, room by
// room: a read of more than maxIdlePerStripe requests (ALL at RF 64, say)
// otherwise found its stripe short of workers on every read, and started
// and dropped a goroutine for each request past the room.
func (p *workers) run(k *call, st int) {
	p.s[(st+k.idx/maxIdlePerStripe)%stripe.N].run(k)
}

// run runs k on an idle worker of s, or on a new one whose home is s.
func (s *idleWorkers) run(k *call) {
	s.mu.Lock()
	if n := len(s.idle); n > 0 {
		w := s.idle[n-1]
		s.idle[n-1] = nil
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		w.jobs <- k // never blocks: an idle worker's slot is empty
		return
	}
	s.mu.Unlock()
	w := &worker{home: s, jobs: make(chan *call, 1)}
	go w.loop(k)
}

// loop runs jobs until the pool no longer wants the worker. It grows its
// stack once, while the stack holds one frame (see growStack).
func (w *worker) loop(k *call) {
	growStack()
	defer abandonedBy(&k)
	for k != nil {
		// A kept goroutine would otherwise keep, in CPU profiles, the
		// labels of the read that started it: take this read's.
		pprof.SetGoroutineLabels(k.ctx)
		k.run()
		k.dropByWorker()
		k = nil // hold nothing of a finished read while idle; and see abandonedBy
		k = w.next()
	}
}

// next parks w and returns its next job, or nil once the pool no longer
// wants it.
func (w *worker) next() *call {
	if !w.home.park(w) {
		return nil
	}
	return <-w.jobs // nil once closed
}

// park puts w on the idle stack, unless the pool is closed or the stack
// is full.
func (s *idleWorkers) park(w *worker) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.idle) >= maxIdlePerStripe {
		return false
	}
	s.idle = append(s.idle, w)
	return true
}

// close stops the idle workers; busy ones exit when their job ends. Jobs
// run after close still run, each on a goroutine of its own.
func (p *workers) close() {
	for i := range p.s {
		p.s[i].close()
	}
}

func (s *idleWorkers) close() {
	s.mu.Lock()
	idle := s.idle
	s.idle, s.closed = nil, true
	s.mu.Unlock()
	for _, w := range idle {
		close(w.jobs)
	}
}
