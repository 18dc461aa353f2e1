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
const maxHungProbesPerNode = 2 * maxHungProbes

// errProbeHung fails a probe not made, its connection holding
// maxHungProbes abandoned probes that have not returned, or its node
// maxHungProbesPerNode.
var errProbeHung = errors.New("ring: not probed: the probes of this connection or node abandoned at ProbeTimeout are still running")

// hungProbe is a probe whose context ended before its Probe returned.
type hungProbe struct {
	p        replica.Prober
	returned bool // under the tracked node's mu
}

// probeOnce runs one probe of t, bounded by ProbeTimeout. The embedder's
// Probe runs on a goroutine of its own: one that ignores its context is
// abandoned to its replica when the context ends, as the coordinator
// abandons a request that hangs, so that a hung probe holds up neither
// the next probe, Forget nor Close; up to maxHungProbes of them a
// connection and maxHungProbesPerNode a node, after which each probe
// fails at once, and the backoff goes on. A probe that panics fails.
func (d *Detector) probeOnce(t *tracked, p replica.Prober) error {
	if t.stillProbing(p) {
		return errProbeHung
	}
	ctx, cancel := context.WithTimeout(t.ctx, d.cfg.ProbeTimeout)
	defer cancel()
	h := &hungProbe{p: p}
	done := make(chan error, 1) // buffered: an abandoned probe still exits
	go func() {
		err := errProbeExited // unless Probe returns: a runtime.Goexit in it ends this goroutine
		defer func() {
			t.mu.Lock()
			h.returned = true
			t.hung = slices.DeleteFunc(t.hung, func(o *hungProbe) bool { return o == h })
			t.mu.Unlock()
			done <- err
		}()
		err = safeProbe(ctx, p)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		t.mu.Lock()
		returned := h.returned
		if !returned {
			t.hung = append(t.hung, h)
		}
		t.mu.Unlock()
		if returned { // it answered as the context ended
			return <-done
		}
		return ctx.Err()
	}
}

// stillProbing reports whether maxHungProbes abandoned probes of p's
// connection, or maxHungProbesPerNode of t's, have not returned yet. A
// connection of a type == cannot compare is charged with none of the
// others' probes: else a replacement of the same type, which may answer,
// was charged with the dead one's, and never probed.
func (t *tracked) stillProbing(p replica.Prober) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case len(t.hung) < maxHungProbes:
		return false
	case len(t.hung) >= maxHungProbesPerNode:
		return true
	}
	conn, _ := p.(replica.Replica)
	n := 0
	for _, h := range t.hung {
		if other, _ := h.p.(replica.Replica); provablySame(other, conn) {
			n++
		}
	}
	return n >= maxHungProbes
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
