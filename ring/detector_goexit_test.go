package ring_test

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// An OnChange that calls runtime.Goexit (t.FailNow in a test's OnChange)
// does not stop the detector: phi is still evaluated, and later changes
// are told. It used to end the monitor goroutine, so a node whose
// heartbeats stopped was never convicted.
func TestDetectorGoesOnAfterOnChangeCallsGoexit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var changes []ring.Change
		var first atomic.Bool
		d, err := ring.NewDetector(ring.DetectorConfig{
			CheckInterval: 100 * time.Millisecond,
			OnChange: func(c ring.Change) {
				mu.Lock()
				changes = append(changes, c)
				mu.Unlock()
				if first.CompareAndSwap(false, true) {
					runtime.Goexit()
				}
			},
		})
		require.NoError(t, err)
		defer d.Close()
		// A connection failure convicts n1: the first change, whose OnChange
		// calls Goexit.
		d.ReportOutcome(replica.Outcome{Endpoint: replica.Endpoint{ID: "n1"}, Err: replica.ErrConnectionFailed})
		synctest.Wait()
		// n2 heartbeats every 100 ms for 2 s, then goes silent for a minute.
		start := time.Now()
		for i := range 20 {
			time.Sleep(time.Until(start.Add(time.Duration(i) * 100 * time.Millisecond)))
			d.Heartbeat("n2", time.Now())
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		assert.False(t, d.IsAlive(replica.Endpoint{ID: "n2"}), "n2 fell silent a minute ago (phi %.0f)", d.Phi("n2", time.Now()))
		mu.Lock()
		defer mu.Unlock()
		assert.Greater(t, len(changes), 1, "no change was told after the first")
	})
}

// probeOK is a replica that probes fine.
type probeOK struct{ id string }

func (p probeOK) Endpoint() replica.Endpoint { return replica.Endpoint{ID: p.id} }
func (probeOK) Read(context.Context, replica.Command) (replica.Response, error) {
	return replica.Response{}, nil
}
func (probeOK) Apply(context.Context, replica.Mutation) error { return nil }
func (probeOK) Probe(context.Context) error                   { return nil }

// A Replicas that calls Goexit once is a failed probe, as one that panics
// is: the next probe readmits the node. It used to end the readmission
// goroutine, and the node stayed convicted for good.
func TestNodeIsReadmittedAfterReplicasCallsGoexit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		d, err := ring.NewDetector(ring.DetectorConfig{
			Replicas: func(id string) (replica.Replica, bool) {
				if calls.Add(1) == 1 {
					runtime.Goexit()
				}
				return probeOK{id}, true
			},
		})
		require.NoError(t, err)
		defer d.Close()
		ep := replica.Endpoint{ID: "n1"}
		d.ReportOutcome(replica.Outcome{Replica: probeOK{"n1"}, Endpoint: ep, Err: replica.ErrConnectionFailed})
		require.False(t, d.IsAlive(ep))
		time.Sleep(10 * time.Minute) // probes back off up to 60 s
		synctest.Wait()
		assert.True(t, d.IsAlive(ep), "n1 answers every probe (Replicas called %d times)", calls.Load())
	})
}

// A Probe that calls runtime.Goexit fails as one that panics does: the
// node is probed again and readmitted once a probe answers. Its goroutine
// ended without a word, and the probe waited out ProbeTimeout and counted
// as still running for good, towards the four that stop a connection's
// probes.
func TestAProbeThatCallsGoexitFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{ProbeTimeout: time.Hour})
		defer d.Close()
		exits := func(context.Context) error { runtime.Goexit(); return nil }
		_, convicted := convictedScripted(d, exits, exits, exits)
		// Probes at +1, +3 and +7 s call Goexit; the fourth, at +15 s, answers.
		time.Sleep(15 * time.Second)
		wantProbedBack(t, d, rec, convicted, 15*time.Second)
	})
}
