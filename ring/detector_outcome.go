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
	at := time.Now()
	fresh := d.set(t, downConn, ConnectionFailed, at)
	if fresh && t.ctx == nil {
		t.ctx, t.cancel = context.WithCancel(d.ctx)
		t.rng = rand.New(rand.NewPCG(d.seed, hashID(t.id)))
	}
	t.mu.Unlock()
	if fresh {
		d.start(func() { d.readmission(t, rep, at.Add(d.cfg.ReadmitAfter)) })
	}
}

// readmission readmits t: by probes while its current connection is a
// replica.Prober, else at deadline, ReadmitAfter after its conviction. It
// runs on the detector's goroutine, where Replicas may be called; if
// Replicas panics, the failed connection decides.
func (d *Detector) readmission(t *tracked, failed replica.Replica, deadline time.Time) {
	p := probing{last: failed, deadline: deadline, choosing: true}
	defer d.replaceProbing(t, &p)
	rep, err := d.current(t)
	p.choosing = false
	if err != nil {
		rep = failed
	}
	// A connection made since the one that failed (a node replaced under
	// its ID while a request to the old one was out) is probed at once,
	// as one found later is: waited for, a node that never failed stayed
	// down for the backoff's first delay.
	d.readmitFrom(t, &p, rep, !sameReplica(rep, failed))
	p.returned = true
}

// readmitFrom goes on with a readmission from t's connection rep, probed
// at once if now, else after the backoff's first delay.
func (d *Detector) readmitFrom(t *tracked, p *probing, rep replica.Replica, now bool) {
	if _, ok := rep.(replica.Prober); ok {
		p.last = rep
		d.probe(t, p, now)
	} else if p.last = rep; d.readmitFor(t, p) {
		d.probe(t, p, true)
	}
}

// probing is where a readmission is in its probes.
type probing struct {
	last     replica.Replica // the connection probed last
	n        int             // the probe's place in the backoff
	deadline time.Time       // as readmission's
	choosing bool            // asking Replicas for the connection to start from
	awaiting bool            // in readmitBy, waiting for deadline
	waitEnd  time.Time       // the backoff's wait before probe n ends then; zero outside it
	returned bool            // see replaceProbing
}

// probe probes t's connection p.last, at once if now, else after the
// backoff's delay for p.n, and then t's current connection until it
// answers, t is forgotten or the detector closes. A connection other than
// p.last restarts the backoff; one that is no Prober readmits t at
// p.deadline, unless a Prober replaces it first. A Replicas that panics
// is a failed probe.
func (d *Detector) probe(t *tracked, p *probing, now bool) {
	for ; ; p.n++ {
		if !now || p.n > 0 {
			if p.waitEnd.IsZero() { // else resumed in the wait (see replaceProbing)
				t.mu.Lock()
				p.waitEnd = time.Now().Add(d.cfg.Probe.Delay(p.n, t.rng.Float64()))
				t.mu.Unlock()
			}
			ok := d.await(t, time.Until(p.waitEnd), p.last)
			p.waitEnd = time.Time{}
			if !ok {
				return
			}
		}
		rep, err := d.current(t)
		if err == nil {
			pr, ok := rep.(replica.Prober)
			if ok && !sameReplica(rep, p.last) {
				p.n, p.last = 0, rep
			}
			if ok {
				err = d.probeOnce(t, pr)
			}
			if !ok || errors.Is(err, errors.ErrUnsupported) { // no Prober, or a wrapper of one that is none
				if p.last = rep; !d.readmitFor(t, p) {
					return
				}
				err = d.probeOnce(t, p.last.(replica.Prober))
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

// readmitFor is readmitBy for a readmission at p, from its connection
// p.last: it reports whether a Prober came first, which is then p.last,
// at the backoff's start. p shows it awaiting meanwhile (see
// resumeProbing).
func (d *Detector) readmitFor(t *tracked, p *probing) bool {
	p.awaiting = true
	rep := d.readmitBy(t, p.deadline, p.last)
	p.awaiting = false
	if rep == nil {
		return false
	}
	p.n, p.last = 0, rep
	return true
}

// readmitBy readmits t at deadline, ReadmitAfter after its conviction (at
// once if that has passed), unless its node gets a connection other than
// conn that is a Prober first: with Replicas it looks every CheckInterval,
// as await does, and returns that connection, to be probed at once. It
// returns nil once t is readmitted, forgotten or the detector closed.
func (d *Detector) readmitBy(t *tracked, deadline time.Time, conn replica.Replica) replica.Replica {
	for {
		if !d.await(t, time.Until(deadline), conn) {
			return nil
		}
		if !time.Now().Before(deadline) {
			d.readmit(t, ReadmitTimeout)
			return nil
		}
		rep, err := d.current(t)
		if err != nil {
			continue
		}
		if _, ok := rep.(replica.Prober); ok {
			return rep
		}
		conn = rep // another connection without Probe: the same deadline
	}
}

// readmit marks t up. A probe that answered starts its count of
// connection failures again; a readmission at ReadmitAfter keeps it, as
// t has not answered since: its next failure convicts it again.
func (d *Detector) readmit(t *tracked, cause Cause) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cause == ProbeSucceeded {
		t.failures.Store(0)
	}
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
