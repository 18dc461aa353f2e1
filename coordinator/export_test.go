package coordinator

// HoldWorkers puts n workers on every stripe's idle stack that take up the
// job they are given only once release is closed: requests the coordinator
// has sent but its own goroutines have not started, as when a collector's
// pause or busy cores keep them from running. They run one job each and
// exit; Close stops those given none.
func HoldWorkers(c *Coordinator, n int, release <-chan struct{}) {
	for i := range c.workers.s {
		s := &c.workers.s[i]
		for range n {
			w := &worker{home: s, jobs: make(chan *call, 1)}
			s.mu.Lock()
			s.idle = append(s.idle, w)
			s.mu.Unlock()
			go func() {
				k, ok := <-w.jobs
				if !ok {
					return
				}
				<-release
				k.run()
				k.drop()
			}()
		}
	}
}
