package ring

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/readpath/readpath/replica"
)

// errProbeExited fails a probe whose Probe called runtime.Goexit (t.FailNow
// in a test's Prober): as a panic does, rather than hang until ProbeTimeout
// and count as still running for good.
var errProbeExited = errors.New("ring: probe called runtime.Goexit")

// maxHungProbes is how many probes of one connection abandoned at
// ProbeTimeout may still run: past them it is not probed until one
// returns. One that hangs holds up none of the next few probes, which may
// answer; a connection whose every probe hangs holds this many goroutines,
// not one more a probe (one a minute, forever, before this bound).
const maxHungProbes = 4

// maxHungProbesPerNode bounds a node's abandoned probes that still run,
// whatever its connections: a Replicas that hands out a new value at each
// call (a wrapper made afresh) looks like a new connection every time, and
// its hung probes held one goroutine a probe, every second or two, forever.
// Past it, one probe more may run, of a connection with no hung probe of
// its own (see stillProbing).
const maxHungProbesPerNode = 2 * maxHungProbes

// errProbeHung fails a probe not made, its connection holding
// maxHungProbes abandoned probes that have not returned, or its node
// maxHungProbesPerNode.
var errProbeHung = errors.New("ring: not probed: the probes of this connection or node abandoned at ProbeTimeout are still running")

// hungProbe is a probe whose context ended before its Probe returned.
type hungProbe struct {
	p        replica.Prober
	pastCap  bool // made with maxHungProbesPerNode of its node's hung
	returned bool // under Detector.hungMu
}

// probeOnce runs one probe of t, bounded by ProbeTimeout. The embedder's
// Probe runs on a goroutine of its own: one that ignores its context is
// abandoned to its replica when the context ends, as the coordinator
// abandons a request that hangs, so that a hung probe holds up neither
// the next probe, Forget nor Close; up to maxHungProbes of them a
// connection and maxHungProbesPerNode a node (one more of a connection
// with none), after which each probe fails at once, and the backoff goes
// on. A probe that panics fails.
func (d *Detector) probeOnce(t *tracked, p replica.Prober) error {
	refuse, pastCap := d.stillProbing(t.id, p)
	if refuse {
		return errProbeHung
	}
	ctx, cancel := context.WithTimeout(t.ctx, d.cfg.ProbeTimeout)
	defer cancel()
	h := &hungProbe{p: p, pastCap: pastCap}
	done := make(chan error, 1) // buffered: an abandoned probe still exits
	go func() {
		err := errProbeExited // unless Probe returns: a runtime.Goexit in it ends this goroutine
		defer func() {
			d.hungMu.Lock()
			h.returned = true
			if hs := slices.DeleteFunc(d.hung[t.id], func(o *hungProbe) bool { return o == h }); len(hs) > 0 {
				d.hung[t.id] = hs
			} else {
				delete(d.hung, t.id)
			}
			d.hungMu.Unlock()
			done <- err
		}()
		err = safeProbe(ctx, p)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		d.hungMu.Lock()
		returned := h.returned
		if !returned {
			if d.hung == nil {
				d.hung = map[string][]*hungProbe{}
			}
			d.hung[t.id] = append(d.hung[t.id], h)
		}
		d.hungMu.Unlock()
		if returned { // it answered as the context ended
			return <-done
		}
		return ctx.Err()
	}
}

// stillProbing reports whether a probe of node id through p must not be
// made: maxHungProbes abandoned probes of p's connection have not
// returned yet, or maxHungProbesPerNode of the node's, unless p's
// connection has none and no probe made past that cap is hung (then
// pastCap is set: a healthy replacement under the node's ID is probed,
// and readmits it, while the old connections' probes hang, and a node
// holds at most one hung probe more). A connection of a type == cannot
// compare is charged with none of the others' probes: else a replacement
// of the same type, which may answer, was charged with the dead one's,
// and never probed.
func (d *Detector) stillProbing(id string, p replica.Prober) (refuse, pastCap bool) {
	d.hungMu.Lock()
	defer d.hungMu.Unlock()
	hs := d.hung[id]
	if len(hs) < maxHungProbes {
		return false, false
	}
	conn, _ := p.(replica.Replica)
	own, capped := 0, false
	for _, h := range hs {
		if other, _ := h.p.(replica.Replica); provablySame(other, conn) {
			own++
		}
		capped = capped || h.pastCap
	}
	switch {
	case own >= maxHungProbes:
		return true, false
	case len(hs) < maxHungProbesPerNode:
		return false, false
	case own == 0 && !capped:
		return false, true
	}
	return true, false
}

// safeProbe calls p.Probe, turning a panic into a failed probe, and so a
// nil pointer returned as an error, whose Unwrap or Is errors.Is would
// call on nil.
func safeProbe(ctx context.Context, p replica.Prober) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("ring: probe panicked: %v", v)
		}
	}()
	return usable(p.Probe(ctx), "Probe")
}
