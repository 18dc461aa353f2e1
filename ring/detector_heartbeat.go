package ring

import "time"

// Heartbeat records that node id showed it was alive at at (a gossip
// heartbeat, say). The first heartbeat starts the node's phi accounting;
// a heartbeat of a node convicted by phi readmits it. A heartbeat not
// after the node's latest (out of order, or the same one again) is
// ignored, and readmits nothing. So is a heartbeat of the empty ID, which
// names no node (ReportOutcome ignores it too). Stamp a heartbeat with
// the time it arrived, by the clock the detector's checks read
// (time.Now): one stamped ahead of it makes the heartbeats after it look
// out of order until that time, and the node unconvictable meanwhile. Pass
// time.Now's reading as it is: a time without its monotonic clock reading
// (after UTC, Local, In or Round(0), or from time.Unix or a decoder) is
// judged by the wall clock, which a step (NTP, a resumed VM) moves. A step
// forward of about 18 mean intervals then convicts every node so stamped
// at the next check, and one back keeps their phi at 0, and their
// heartbeats ignored, for as long as the step.
func (d *Detector) Heartbeat(id string, at time.Time) {
	if id == "" {
		return
	}
	t := d.track(id)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.window == nil {
		t.window, _ = NewArrivalWindow(d.cfg.WindowSize, d.cfg.InitialInterval, d.cfg.MaxInterval) // valid: NewDetector checked
	}
	if last, ok := t.window.Last(); ok && !at.After(last) {
		return
	}
	t.window.Add(at)
	d.clear(t, downPhi, HeartbeatsResumed, at)
}

// monitor evaluates phi every CheckInterval and delivers OnChange, until
// Close. It skips the checks for MaxLocalPause after a stall of its own.
func (d *Detector) monitor() {
	d.watch(&watching{guard: pauseGuard{max: d.cfg.MaxLocalPause, last: time.Now()}})
}

// watching is the monitor's state, which a monitor started in place of
// one that OnChange ended goes on from (see replaceMonitor).
type watching struct {
	guard    pauseGuard
	untold   []Change // drained, OnChange not called yet
	returned bool
}

func (d *Detector) watch(w *watching) {
	defer d.replaceMonitor(w)
	d.tellAll(w)
	d.watchOn(w)
	w.returned = true
}

func (d *Detector) watchOn(w *watching) {
	tick := time.NewTicker(d.cfg.CheckInterval)
	defer tick.Stop()
	var nodes []*tracked
	for {
		select {
		case <-d.ctx.Done():
			return
		case <-tick.C:
			// Now, not the tick's time: after a stall the ticker hands
			// out the time of the tick it missed.
			now := time.Now()
			if !w.guard.allow(now) {
				continue
			}
			nodes = d.snapshot(nodes)
			d.check(nodes, now)
			clear(nodes) // let forgotten nodes go
		case <-d.events.ready:
			w.untold = d.events.drain()
			d.tellAll(w)
		}
	}
}

// tellAll calls OnChange with each change of w.untold, in order.
func (d *Detector) tellAll(w *watching) {
	for len(w.untold) > 0 {
		c := w.untold[0]
		w.untold = w.untold[1:]
		d.tell(c)
	}
}

// tell calls OnChange with c. A call that panics is abandoned, as a probe
// that panics fails: the detector, and the changes after c, go on.
func (d *Detector) tell(c Change) {
	defer func() { _ = recover() }()
	d.cfg.OnChange(c)
}

// check convicts the nodes whose phi at now exceeds the threshold.
func (d *Detector) check(nodes []*tracked, now time.Time) {
	for _, t := range nodes {
		t.mu.Lock()
		if t.window != nil && t.window.Phi(now) > d.cfg.PhiConvictThreshold {
			d.set(t, downPhi, HeartbeatsStopped, now)
		}
		t.mu.Unlock()
	}
}
