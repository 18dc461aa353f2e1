package ring_test

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// conns is a DetectorConfig.Replicas over connections the test replaces,
// as a Locator replaces a node's. It panics until panicUntil.
type conns struct {
	mu         sync.Mutex
	m          map[string]replica.Replica
	panicUntil time.Time
}

func newConns(id string, r replica.Replica) *conns {
	return &conns{m: map[string]replica.Replica{id: r}}
}

func (c *conns) set(id string, r replica.Replica) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[id] = r
}

func (c *conns) replicas(id string) (replica.Replica, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Now().Before(c.panicUntil) {
		panic("lookup bug")
	}
	r, ok := c.m[id]
	return r, ok
}

func prober(id string, fault replicatest.Fault) *countingProber {
	p := &countingProber{Replica: node(id, "dc1")}
	_ = p.SetFault(fault)
	return p
}

// convictedVia returns a detector that finds connections through c, and
// when it convicted old, whose read it has just seen refused.
func convictedVia(t *testing.T, c *conns, old replica.Replica) (*ring.Detector, *recorder, time.Time) {
	t.Helper()
	d, rec := newDetector(t, ring.DetectorConfig{Replicas: c.replicas})
	convicted := time.Now()
	_ = read(d, old, time.Second)
	return d, rec, convicted
}

func probeCount(p *countingProber) int {
	starts, _ := p.probes()
	return len(starts)
}

// The trial's failure: node a is replaced under its ID while convicted and
// forgotten, and a read in flight to the old connection then fails. That
// stale outcome convicts a again, and the detector probes a's current
// connection, which never failed, at once (not after the backoff's first
// delay, a second here), instead of the dead one for good.
func TestStaleOutcomeAfterForgetIsProbedThroughTheNewConnection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		old := prober("a", replicatest.Down())
		c := newConns("a", old)
		d, rec, convicted := convictedVia(t, c, old)
		defer d.Close()
		time.Sleep(500 * time.Millisecond)
		c.set("a", prober("a", replicatest.Fault{}))
		d.Forget("a")
		again := time.Now()
		d.ReportOutcome(replica.Outcome{Replica: old, Endpoint: old.Endpoint(), Err: replicatest.ErrDown})
		time.Sleep(time.Second)
		wantChanges(t, rec,
			change("a", false, ring.ConnectionFailed, convicted),
			change("a", false, ring.ConnectionFailed, again),
			change("a", true, ring.ProbeSucceeded, again))
		if n := probeCount(old); n != 0 {
			t.Errorf("the old connection was probed %d times", n)
		}
	})
}

// A node replaced while its probes back off is probed through its new
// connection within CheckInterval of the replacement, not at the next
// probe of the backoff: probes at +1, +3, +7, +15 and +31 s fail, the node
// is replaced at +40.5 s, and the next probe, at +41 s, readmits it
// (instead of the one due at +63 s). A replacement of another type is a
// new connection too, even of a type == cannot compare (which counts as the
// same connection only against a value of its own type).
func TestAReplacementIsProbedAtOnce(t *testing.T) {
	for name, replacement := range map[string]func() replica.Replica{
		"same type":                  func() replica.Replica { return prober("a", replicatest.Fault{}) },
		"another, uncomparable type": func() replica.Replica { return unhashable{node("a", "dc1"), []string{"new"}} },
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				old := prober("a", replicatest.Down())
				c := newConns("a", old)
				d, rec, convicted := convictedVia(t, c, old)
				defer d.Close()
				time.Sleep(40500 * time.Millisecond)
				c.set("a", replacement())
				time.Sleep(time.Second)
				wantChanges(t, rec,
					change("a", false, ring.ConnectionFailed, convicted),
					change("a", true, ring.ProbeSucceeded, convicted.Add(41*time.Second)))
				if n := probeCount(old); n != 5 {
					t.Errorf("the old connection was probed %d times, want 5", n)
				}
			})
		})
	}
}

// A new connection restarts the backoff: the replacement of +40.5 s is not
// up yet when probed at +41 s, and is probed again 2 s later, not 60 s.
func TestAReplacementRestartsTheBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		old := prober("a", replicatest.Down())
		c := newConns("a", old)
		d, rec, convicted := convictedVia(t, c, old)
		defer d.Close()
		time.Sleep(40500 * time.Millisecond)
		replacement := prober("a", replicatest.Down())
		c.set("a", replacement)
		time.Sleep(1500 * time.Millisecond) // the probe at +41 s fails
		_ = replacement.SetFault(replicatest.Fault{})
		time.Sleep(time.Second)
		wantChanges(t, rec,
			change("a", false, ring.ConnectionFailed, convicted),
			change("a", true, ring.ProbeSucceeded, convicted.Add(43*time.Second)))
	})
}

// Whether a convicted node is probed or readmitted after ReadmitAfter
// depends on its current connection, not on the one that failed; a
// current connection other than that one is probed at once.
func TestTheCurrentConnectionChoosesProbesOrReadmitAfter(t *testing.T) {
	for _, tc := range []struct {
		name            string
		failed, current replica.Replica
		cause           ring.Cause
		after           time.Duration
	}{
		{"failed one has no Probe", hidden{node("a", "dc1")}, node("a", "dc1"), ring.ProbeSucceeded, 0},
		{"current one has no Probe", prober("a", replicatest.Down()), hidden{node("a", "dc1")}, ring.ReadmitTimeout, 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := newConns("a", tc.current)
				d, rec := newDetector(t, ring.DetectorConfig{Replicas: c.replicas})
				defer d.Close()
				convicted := time.Now()
				d.ReportOutcome(replica.Outcome{Replica: tc.failed, Endpoint: tc.failed.Endpoint(), Err: replicatest.ErrDown})
				time.Sleep(time.Minute)
				wantChanges(t, rec,
					change("a", false, ring.ConnectionFailed, convicted),
					change("a", true, tc.cause, convicted.Add(tc.after)))
			})
		})
	}
}

// For a node Replicas does not know (not yet added back, say), the
// connection that failed is probed; so it is for a node whose value
// Replicas hands back with false (a stale entry, say): its bool, not its
// value, says whether it knows the node, and the stale entry is never
// probed.
func TestAnUnknownNodeIsProbedThroughItsFailedConnection(t *testing.T) {
	for _, staleEntry := range []bool{false, true} {
		t.Run(fmt.Sprintf("stale entry %v", staleEntry), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				replicas := newConns("b", node("b", "dc1")).replicas
				stale := prober("a", replicatest.Fault{})
				if staleEntry {
					replicas = func(string) (replica.Replica, bool) { return stale, false }
				}
				d, rec := newDetector(t, ring.DetectorConfig{Replicas: replicas})
				defer d.Close()
				a := prober("a", replicatest.Down())
				convicted := time.Now()
				read(d, a, time.Second)
				time.Sleep(2 * time.Second) // the probe at +1 s fails
				_ = a.SetFault(replicatest.Fault{})
				time.Sleep(time.Second)
				wantChanges(t, rec,
					change("a", false, ring.ConnectionFailed, convicted),
					change("a", true, ring.ProbeSucceeded, convicted.Add(3*time.Second)))
				if n := probeCount(stale); n != 0 {
					t.Errorf("the connection Replicas did not vouch for was probed %d times", n)
				}
			})
		})
	}
}

// A Replicas that panics is a failed probe, not a crash: here it panics
// for 5 s, through the probes at +1 and +3 s, and the lookup at +5 s
// finds the new connection, which is probed at once.
func TestAReplicasThatPanicsIsAFailedProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		old := prober("a", replicatest.Down())
		c := newConns("a", prober("a", replicatest.Fault{}))
		c.panicUntil = time.Now().Add(5 * time.Second)
		d, rec, convicted := convictedVia(t, c, old)
		defer d.Close()
		time.Sleep(time.Minute)
		wantChanges(t, rec,
			change("a", false, ring.ConnectionFailed, convicted),
			change("a", true, ring.ProbeSucceeded, convicted.Add(5*time.Second)))
		if n := probeCount(old); n != 0 {
			t.Errorf("the failed connection was probed %d times", n)
		}
	})
}

// unhashable is a connection of a type == panics on: it holds a slice.
type unhashable struct {
	*replicatest.Replica
	tags []string
}

// proberReplica is what boxed holds.
type proberReplica interface {
	replica.Replica
	replica.Prober
}

// boxed is of a comparable type that holds a connection of one that is
// not: == panics on two of them too.
type boxed struct{ proberReplica }

// Connections of a type == panics on are compared without a panic (and
// count as unchanged): the node is probed back.
func TestUncomparableConnectionsDoNotPanic(t *testing.T) {
	for _, tc := range []struct {
		name string
		wrap func(*replicatest.Replica) replica.Replica
	}{
		{"slice field", func(r *replicatest.Replica) replica.Replica { return unhashable{r, []string{"x"}} }},
		{"interface field", func(r *replicatest.Replica) replica.Replica { return boxed{unhashable{r, nil}} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a := node("a", "dc1")
				_ = a.SetFault(replicatest.Down())
				d, rec := newDetector(t, ring.DetectorConfig{Replicas: func(string) (replica.Replica, bool) {
					return tc.wrap(a), true // a new value at every call
				}})
				defer d.Close()
				convicted := time.Now()
				read(d, tc.wrap(a), time.Second)
				time.Sleep(2 * time.Second) // the probe at +1 s fails
				_ = a.SetFault(replicatest.Fault{})
				time.Sleep(time.Second)
				wantChanges(t, rec,
					change("a", false, ring.ConnectionFailed, convicted),
					change("a", true, ring.ProbeSucceeded, convicted.Add(3*time.Second)))
			})
		})
	}
}

// A node replaced under its ID while a request to its old connection was
// out, and not yet convicted, is probed through the new connection at
// once when the old one's failure comes in, whatever the backoff's first
// delay, as a connection found later is: it stayed down for that delay, 30
// s here (found by a ring drill). So is one replaced at once after the old
// connection's failure convicted it, before the readmission looked.
func TestANodeReplacedBeforeItsOldConnectionFailedIsProbedAtOnce(t *testing.T) {
	for _, replaceFirst := range []bool{true, false} {
		t.Run(fmt.Sprint("replaced first ", replaceFirst), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				old, fresh := prober("a", replicatest.Down()), prober("a", replicatest.Fault{})
				c := newConns("a", old)
				d, rec := newDetector(t, ring.DetectorConfig{Replicas: c.replicas,
					Probe: ring.Backoff{Initial: 30 * time.Second, Jitter: -1}})
				defer d.Close()
				if replaceFirst {
					c.set("a", fresh)
				}
				at := time.Now()
				d.ReportOutcome(replica.Outcome{Replica: old, Endpoint: old.Endpoint(), Err: replicatest.ErrDown})
				if !replaceFirst {
					c.set("a", fresh)
				}
				wantChanges(t, rec,
					change("a", false, ring.ConnectionFailed, at),
					change("a", true, ring.ProbeSucceeded, at))
				if n := probeCount(old); n != 0 {
					t.Errorf("the old connection was probed %d times", n)
				}
			})
		})
	}
}
