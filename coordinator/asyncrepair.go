package coordinator

import (
	"context"
	"sync"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// repairJob is one repair write waiting in the ASYNC queue.
type repairJob struct {
	t   *table
	key string
	s   staleReplica
}

// repairQueue applies repair writes in the background: a bounded queue and
// a few workers, started by the first job and stopped by Close. A job that
// finds the queue full is dropped and counted; reads never wait for it.
type repairQueue struct {
	c      *Coordinator
	jobs   chan repairJob
	ctx    context.Context
	cancel context.CancelFunc
	start  sync.Once
	wg     sync.WaitGroup
	mu     sync.RWMutex // guards closed against enqueue; never held across a wait
	closed bool
}

func (q *repairQueue) init(c *Coordinator) {
	q.c = c
	q.jobs = make(chan repairJob, c.cfg.RepairQueue)
	q.ctx, q.cancel = context.WithCancel(context.Background())
}

// enqueue queues a job without blocking, or drops it.
func (q *repairQueue) enqueue(j repairJob) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if !q.closed {
		q.start.Do(q.startWorkers)
		select {
		case q.jobs <- j:
			return
		default:
		}
	}
	q.drop(j)
}

func (q *repairQueue) drop(j repairJob) {
	j.t.m.repairsDropped.Add(1)
	if o := q.c.cfg.Observer; o != nil {
		o.OnRepair(RepairEvent{Table: j.t.name, Key: j.key, To: j.s.cand.ep, Mode: repair.Async, Mutation: j.s.diff, Dropped: true})
	}
}

func (q *repairQueue) startWorkers() {
	for range q.c.cfg.RepairWorkers {
		q.wg.Add(1)
		go q.work()
	}
}

func (q *repairQueue) work() {
	defer q.wg.Done()
	for {
		select {
		case <-q.ctx.Done():
			return
		case j := <-q.jobs:
			q.apply(j)
		}
	}
}

// apply writes one repair, bounded by the read timeout.
func (q *repairQueue) apply(j repairJob) {
	ctx, cancel := context.WithTimeout(q.ctx, q.c.cfg.ReadTimeout)
	defer cancel()
	j.t.m.repairsSent.Add(1)
	m := replica.Mutation{Table: j.t.name, Partition: j.s.diff}
	q.c.repairDone(j.t, j.key, j.s, repair.Async, q.c.safeApply(ctx, j.s.cand, m))
}

// close stops the workers, cancelling writes in flight, and drops what is
// still queued.
func (q *repairQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cancel()
	q.wg.Wait()
	for {
		select {
		case j := <-q.jobs:
			q.drop(j)
		default:
			return
		}
	}
}
