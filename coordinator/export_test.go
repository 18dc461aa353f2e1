package coordinator

// HeldCall is what HoldWorkers' hold is told of a request.
type HeldCall struct {
	Replica    string
	DigestOnly bool
	Mutation   bool // a repair write
}

// HoldWorkers puts n workers on every stripe's idle stack that take up a
// job for which hold reports true only once release is closed, and any
// other at once: requests the coordinator has sent but its own goroutines
// have not started, as when a collector's pause or busy cores keep them
// from running. Like the pool's own workers they wait for the next job
// after each one, until Close.
func HoldWorkers(c *Coordinator, n int, hold func(HeldCall) bool, release <-chan struct{}) {
	for i := range c.workers.s {
		s := &c.workers.s[i]
		for range n {
			w := &worker{home: s, jobs: make(chan *call, 1)}
			if !s.park(w) {
				return
			}
			go func() {
				for k := range w.jobs {
					if hold(HeldCall{Replica: k.cand.ep.ID, DigestOnly: k.cmd.DigestOnly, Mutation: k.mutation}) {
						<-release
					}
					k.run()
					k.dropByWorker()
					if !s.park(w) {
						return
					}
				}
			}()
		}
	}
}

// Effective is the grace and tombstone thresholds reads of o run with; a
// threshold of 0 is none.
func Effective(o TableOptions) (grace int64, warn, failure int) {
	return o.gcGrace(), threshold(o.TombstoneWarnThreshold, defaultTombstoneWarn),
		threshold(o.TombstoneFailureThreshold, defaultTombstoneFailure)
}
