package ring

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/readpath/readpath/replica"
)

// ReportOutcome learns from a request the coordinator made. A success
// resets the replica's count of connection failures; a connection failure
// (replica.IsConnectionFailure) counts, and ConnectionFailures of them in a
// row convict the replica. Any other error, a timeout or a cancellation
// among them, changes nothing: a slow replica is the snitch's business, not
// the failure detector's. A success does not readmit a convicted replica
// (it may have been answered before the failure): only a probe does.
func (d *Detector) ReportOutcome(o replica.Outcome) {
	ep := o.Endpoint
	if ep.ID == "" && o.Replica != nil {
		ep = o.Replica.Endpoint()
	}
	if ep.ID == "" {
		return
	}
	if o.Err == nil {
		if t := d.nodes.Load().get(ep.ID); t != nil && t.failures.Load() != 0 {
			t.failures.Store(0)
		}
		return
	}
	if !replica.IsConnectionFailure(o.Err) {
		return
	}
	t := d.track(ep.ID)
	d.publish(t) // so that a success resets its count
	t.know(ep)
	if int(t.failures.Add(1)) >= d.cfg.ConnectionFailures {
		d.convict(t, ep, o.Replica)
	}
}

// know records ep as t's endpoint: Nodes lists a failing node with its
// datacenter and rack from its first failure, not from its conviction on.
func (t *tracked) know(ep replica.Endpoint) {
	t.mu.Lock()
	t.ep = ep
	t.mu.Unlock()
}

// convict marks t down for connection failures and starts its readmission.
func (d *Detector) convict(t *tracked, ep replica.Endpoint, rep replica.Replica) {
	t.mu.Lock()
	t.ep = ep
	if rep != nil {
		t.rep = rep
	}
	rep = t.rep
	fresh := d.set(t, downConn, ConnectionFailed, time.Now())
	if fresh && t.ctx == nil {
		t.ctx, t.cancel = context.WithCancel(d.ctx)
		t.rng = rand.New(rand.NewPCG(d.seed, hashID(t.id)))
	}
	t.mu.Unlock()
	if fresh {
		d.start(func() { d.readmission(t, rep) })
	}
}

// readmission readmits t: by probes if its current connection is a
// replica.Prober, else after ReadmitAfter. It runs on the detector's
// goroutine, where Replicas may be called; if Replicas panics, the failed
// connection decides.
func (d *Detector) readmission(t *tracked, failed replica.Replica) {
	rep, err := d.current(t)
	if err != nil {
		rep = failed
	}
	if _, ok := rep.(replica.Prober); !ok {
		d.readmitAfter(t)
		return
	}
	d.probe(t, rep)
}

// probe probes t's current connection until it answers, t is forgotten or
// the detector closes. Each probe goes to the connection current then: a
// connection other than last restarts the backoff, and one that is no
// Prober readmits t ReadmitAfter later. A Replicas that panics is a failed
// probe.
func (d *Detector) probe(t *tracked, last replica.Replica) {
	for n := 0; ; n++ {
		t.mu.Lock()
		wait := d.cfg.Probe.Delay(n, t.rng.Float64())
		t.mu.Unlock()
		if !d.await(t, wait, last) {
			return
		}
		rep, err := d.current(t)
		if err == nil {
			p, ok := rep.(replica.Prober)
			if !ok {
				d.readmitAfter(t)
				return
			}
			if !sameReplica(rep, last) {
				n, last = 0, rep
			}
			err = d.probeOnce(t, p)
			if errors.Is(err, errors.ErrUnsupported) { // a wrapper of a replica that is no Prober
				d.readmitAfter(t)
				return
			}
		}
		if t.ctx.Err() != nil {
			return
		}
		if err == nil {
			d.readmit(t, ProbeSucceeded)
			return
		}
	}
}

func (d *Detector) readmitAfter(t *tracked) {
	if t.sleep(d.cfg.ReadmitAfter) {
		d.readmit(t, ReadmitTimeout)
	}
}

func (d *Detector) readmit(t *tracked, cause Cause) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures.Store(0)
	d.clear(t, downConn, cause, time.Now())
}

// sleep waits wait, and reports false if t was forgotten or the detector
// closed first.
func (t *tracked) sleep(wait time.Duration) bool {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-t.ctx.Done():
		return false
	}
}
