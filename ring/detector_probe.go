package ring

import (
	"context"
	"fmt"

	"github.com/readpath/readpath/replica"
)

// probeOnce runs one probe of t, bounded by ProbeTimeout. The embedder's
// Probe runs on a goroutine of its own: one that ignores its context is
// abandoned to its replica when the context ends, as the coordinator
// abandons a request that hangs, so that a hung probe holds up neither
// the next probe, Forget nor Close. A probe that panics fails.
func (d *Detector) probeOnce(t *tracked, p replica.Prober) error {
	ctx, cancel := context.WithTimeout(t.ctx, d.cfg.ProbeTimeout)
	defer cancel()
	done := make(chan error, 1) // buffered: an abandoned probe still exits
	go func() { done <- safeProbe(ctx, p) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		select {
		case err := <-done: // it answered as the context ended
			return err
		default:
			return ctx.Err()
		}
	}
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
