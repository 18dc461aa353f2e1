package ring

import (
	"cmp"
	"slices"
	"time"

	"github.com/readpath/readpath/replica"
)

// NodeState is a Detector's view of one node it tracks, for an exporter:
// a gauge per node of whether it is up, and why not. It is a plain value,
// safe for concurrent use.
type NodeState struct {
	// Endpoint is the node as the detector knows it: from its last
	// connection failure, if any; a node known only by its heartbeats has
	// only an ID.
	Endpoint replica.Endpoint
	Alive    bool
	// HeartbeatsStopped and ConnectionFailed say which sources convict it;
	// both may.
	HeartbeatsStopped, ConnectionFailed bool
	// Phi is its phi at the time asked, 0 without heartbeats.
	Phi float64
	// Failures is its connection failures in a row since its last answer.
	Failures int
	// Convictions counts the times it went from alive to down (one
	// OnChange each), from when the detector began tracking it: a counter
	// for an exporter, which Forget starts again from zero.
	Convictions int
}

// Nodes returns the state at now of every node the detector tracks (each
// it heard a heartbeat of, and each with a connection failure; a node
// that only answered is not tracked, and is alive), sorted by ID. It takes
// one node's lock at a time, so reads and heartbeats go on meanwhile.
func (d *Detector) Nodes(now time.Time) []NodeState {
	ts := d.snapshot(nil)
	out := make([]NodeState, 0, len(ts))
	for _, t := range ts {
		t.mu.Lock()
		if t.gone {
			t.mu.Unlock()
			continue
		}
		down := t.down.Load()
		s := NodeState{Endpoint: t.ep, Alive: down == 0, HeartbeatsStopped: down&downPhi != 0,
			ConnectionFailed: down&downConn != 0, Failures: int(t.failures.Load()), Convictions: t.convictions}
		if t.window != nil {
			s.Phi = t.window.Phi(now)
		}
		t.mu.Unlock()
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b NodeState) int { return cmp.Compare(a.Endpoint.ID, b.Endpoint.ID) })
	return out
}
