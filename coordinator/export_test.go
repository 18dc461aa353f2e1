package coordinator

// HoldWorkers puts n workers on every stripe's idle stack that take up a
// job only once release is closed (with repairsOnly, only a repair write;
// reads at once): requests the coordinator has sent but its own goroutines
// have not started, as when a collector's pause or busy cores keep them
// from running. Like the pool's own workers they wait for the next job
// after each one, until Close.
func HoldWorkers(c *Coordinator, n int, repairsOnly bool, release <-chan struct{}) {
	for i := range c.workers.s {
		s := &c.workers.s[i]
		for range n {
			w := &worker{home: s, jobs: make(chan *call, 1)}
			if !s.park(w) {
				return
			}
			go func() {
				for k := range w.jobs {
					if k.mutation || !repairsOnly {
						<-release
					}
					k.run()
					k.drop()
					if !s.park(w) {
						return
					}
				}
			}()
		}
	}
}
