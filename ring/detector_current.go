package ring

import (
	"fmt"
	"reflect"
	"time"

	"github.com/readpath/readpath/replica"
)

// A convicted node is probed through its current connection, not the one
// that failed: a node replaced under the same ID, or removed and added
// again, gets a new connection from the Locator, and probing the old, dead
// one would keep the new node out of reads for good.

// current returns the connection through which t is probed: the node's
// current one from DetectorConfig.Replicas or, when Replicas is nil or does
// not know the node, the one whose failure convicted it. The error reports
// a Replicas that panicked.
func (d *Detector) current(t *tracked) (replica.Replica, error) {
	if d.cfg.Replicas != nil {
		rep, ok, err := safeReplicas(d.cfg.Replicas, t.id)
		if err != nil {
			return nil, err
		}
		if ok && rep != nil {
			return rep, nil
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rep, nil
}

// safeReplicas calls f, turning a panic into an error.
func safeReplicas(f func(string) (replica.Replica, bool), id string) (rep replica.Replica, ok bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			rep, ok, err = nil, false, fmt.Errorf("ring: DetectorConfig.Replicas panicked: %v", v)
		}
	}()
	rep, ok = f(id)
	return rep, ok, nil
}

// sameReplica reports whether a and b are the same connection. == panics
// on two values of one non-comparable type (a struct holding a slice, say):
// those count as the same, so that the backoff is not restarted at every
// probe.
func sameReplica(a, b replica.Replica) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() {
		return false
	}
	if !va.Comparable() || !vb.Comparable() {
		return true
	}
	return a == b
}

// provablySame reports whether a and b are the same connection by ==: two
// values of a type == cannot compare are not.
func provablySame(a, b replica.Replica) bool {
	if a == nil || b == nil || !reflect.ValueOf(a).Comparable() || !reflect.ValueOf(b).Comparable() {
		return false
	}
	return a == b
}

// await waits wait, or less once t's node has a connection other than
// last: with Replicas it looks every CheckInterval, so that a replacement
// is probed within a second or so rather than after a backoff of up to
// Probe.Max. It reports false if t was forgotten or the detector closed.
func (d *Detector) await(t *tracked, wait time.Duration, last replica.Replica) bool {
	if d.cfg.Replicas == nil {
		return t.sleep(wait)
	}
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return true
		}
		if !t.sleep(min(left, d.cfg.CheckInterval)) {
			return false
		}
		if time.Until(deadline) <= 0 {
			return true
		}
		if rep, err := d.current(t); err == nil && !sameReplica(rep, last) {
			return true
		}
	}
}
