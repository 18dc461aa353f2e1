package ring

// The detector's goroutines call the embedder's OnChange and Replicas. A
// panic there is recovered and the detector goes on; a runtime.Goexit
// (t.FailNow in a test's OnChange) is not a panic, and ended the
// goroutine: from OnChange, the monitor, so phi was never evaluated again;
// from Replicas, a readmission, so its node stayed convicted for good.
// Each is now replaced by a goroutine that goes on from where it was, if
// the detector is not closed.

// replaceMonitor, deferred by the monitor, starts another in its place
// unless it returned. The changes after the one OnChange ended on are
// still told, and the pause guard goes on: OnChange held the monitor.
func (d *Detector) replaceMonitor(w *watching) {
	if !w.returned {
		d.start(func() { d.watch(w) })
	}
}

// replaceProbing, deferred by a readmission, starts another in its place
// unless it returned. A Replicas or Probe that ended it probing is a failed
// probe, as one that panics is: the next probe waits the backoff's next
// delay. One that ended it elsewhere changes nothing, as one that panics
// does not: asked for the connection to start from, the failed one
// decides; awaiting the readmission's deadline, or the backoff's wait
// before a probe, the readmission awaits the same deadline or wait.
func (d *Detector) replaceProbing(t *tracked, p *probing) {
	if p.returned {
		return
	}
	next := *p
	if !next.choosing && !next.awaiting && next.waitEnd.IsZero() {
		next.n++
	}
	d.start(func() { d.resumeProbing(t, &next) })
}

func (d *Detector) resumeProbing(t *tracked, p *probing) {
	defer d.replaceProbing(t, p)
	switch {
	case p.choosing:
		p.choosing = false
		d.readmitFrom(t, p, p.last, false)
	case p.awaiting:
		if d.readmitFor(t, p) {
			d.probe(t, p, true)
		}
	default:
		d.probe(t, p, false)
	}
	p.returned = true
}
