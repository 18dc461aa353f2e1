package coordinator

import "sync"

// workers runs replica requests on goroutines that are kept between
// requests instead of started for each. A fresh goroutine has a 2 KiB
// stack and must grow it before a replica call fits; a kept one has grown
// already. On a read whose replicas answer at once, starting two
// goroutines and growing their stacks was a third of the read's CPU time.
// (gRPC's server keeps stream workers for the same reason.)
//
// Idle workers wait in a LIFO stack, so the most recently used (with the
// warmest stack) goes first, and at most maxIdleWorkers wait: a worker
// that finds that many idle exits, so a burst's extra goroutines go with
// it. A busy worker belongs to its replica call alone, so a replica that
// hangs holds one goroutine, as it would without the pool.
type workers struct {
	mu     sync.Mutex
	idle   []*worker
	closed bool
}

// maxIdleWorkers bounds the goroutines kept waiting: at 2–8 KiB of stack
// each, at most a few MiB.
const maxIdleWorkers = 256

type worker struct {
	pool *workers
	jobs chan *call // room for one: the next job, or closed to stop
}

// run runs k on an idle worker, or on a new one.
func (p *workers) run(k *call) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		w.jobs <- k // never blocks: an idle worker's slot is empty
		return
	}
	p.mu.Unlock()
	w := &worker{pool: p, jobs: make(chan *call, 1)}
	go w.loop(k)
}

// loop runs jobs until the pool no longer wants the worker. It grows its
// stack once, while the stack holds one frame (see growStack).
func (w *worker) loop(k *call) {
	growStack()
	for {
		k.run()
		k.drop()
		k = nil // hold nothing of a finished read while idle
		if !w.pool.park(w) {
			return
		}
		var ok bool
		if k, ok = <-w.jobs; !ok {
			return
		}
	}
}

// park puts w on the idle stack, unless the pool is closed or has enough
// idle workers.
func (p *workers) park(w *worker) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.idle) >= maxIdleWorkers {
		return false
	}
	p.idle = append(p.idle, w)
	return true
}

// close stops the idle workers; busy ones exit when their job ends. Jobs
// run after close still run, each on a goroutine of its own.
func (p *workers) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, w := range idle {
		close(w.jobs)
	}
}
