package ring_test

import (
	"math"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// Cassandra's FailureDetector.report and ArrivalWindow.add (apache/cassandra
// src/java/org/apache/cassandra/gms/FailureDetector.java): the first
// heartbeat records INITIAL_VALUE_NANOS (2 s) as an interval, so phi after
// t of silence is t / 2 s and, after PHI_FACTOR = 1/ln 10, interpret
// convicts once t / (2 s · ln 10) > 8, strictly: after 36.84 s, at the
// check of 37 s. A heartbeat after that silence, an interval above
// MAX_INTERVAL_IN_NANO, is not learnt: the mean stays 2 s.
func TestDetectorFirstHeartbeatOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		start := time.Now()
		d.Heartbeat("a", start)
		assert.InDelta(t, 1/math.Ln10, d.Phi("a", start.Add(2*time.Second)), 1e-12)
		mean := 2 * time.Second
		bound := time.Duration(8 * math.Ln10 * float64(mean)) // 36.84 s
		assert.InDelta(t, 8, d.Phi("a", start.Add(bound)), 1e-9)
		time.Sleep(36 * time.Second)
		synctest.Wait()
		require.True(t, d.IsAlive(replica.Endpoint{ID: "a"}), "convicted at 36 s, phi %v", d.Phi("a", time.Now()))
		time.Sleep(time.Second)
		synctest.Wait()
		require.False(t, d.IsAlive(replica.Endpoint{ID: "a"}), "alive at 37 s")
		back := start.Add(40 * time.Second)
		time.Sleep(time.Until(back))
		d.Heartbeat("a", back)
		require.True(t, d.IsAlive(replica.Endpoint{ID: "a"}))
		// The 40 s interval is not learnt: phi 2 s later is that of a 2 s mean.
		assert.InDelta(t, 1/math.Ln10, d.Phi("a", back.Add(2*time.Second)), 1e-12)
		wantChanges(t, rec,
			change("a", false, ring.HeartbeatsStopped, start.Add(37*time.Second)),
			change("a", true, ring.HeartbeatsResumed, back))
	})
}

// With one interval learnt after the initial one, the mean is their
// average (ArrayBackedBoundedStats.mean over size() values): beats at 0 and
// 1 s give a mean of 1.5 s. An interval of exactly MaxInterval is learnt
// (Cassandra: interArrivalTime <= MAX_INTERVAL_IN_NANO); one a nanosecond
// longer is not.
func TestDetectorOneIntervalAndTheMaxIntervalEdge(t *testing.T) {
	d := newIdleDetector(t)
	t0 := time.Now()
	d.Heartbeat("a", t0)
	d.Heartbeat("a", t0.Add(time.Second))
	assert.InDelta(t, 1/math.Ln10, d.Phi("a", t0.Add(time.Second+1500*time.Millisecond)), 1e-12)

	d.Heartbeat("b", t0)
	d.Heartbeat("b", t0.Add(2*time.Second)) // exactly MaxInterval: learnt
	assert.InDelta(t, 1/math.Ln10, d.Phi("b", t0.Add(4*time.Second)), 1e-12, "mean (2+2)/2")
	d.Heartbeat("b", t0.Add(4*time.Second+1)) // 2 s + 1 ns: not learnt
	d.Heartbeat("b", t0.Add(5*time.Second+1)) // 1 s: learnt, mean (2+2+1)/3
	mean := float64(5*time.Second) / 3
	assert.InDelta(t, float64(3*time.Second)/mean/math.Ln10, d.Phi("b", t0.Add(8*time.Second+1)), 1e-9)
}

// MaxInterval defaults to InitialInterval, not to Cassandra's 2 s: beating
// every 5 s with an InitialInterval of 10 s, a node learns its 5 s
// intervals, for a mean of (10+5)/2 s, not one of 10 s.
func TestMaxIntervalDefaultsToTheInitialInterval(t *testing.T) {
	cfg := ring.DetectorConfig{InitialInterval: 10 * time.Second, CheckInterval: time.Hour}
	d, err := ring.NewDetector(cfg)
	require.NoError(t, err)
	defer d.Close()
	t0 := time.Now()
	d.Heartbeat("a", t0)
	d.Heartbeat("a", t0.Add(5*time.Second))
	assert.InDelta(t, 1/math.Ln10, d.Phi("a", t0.Add(12500*time.Millisecond)), 1e-12, "mean 7.5 s")
}

// A heartbeat dated before the latest one (a clock that went back, or one
// delivered late) is ignored: it neither teaches an interval nor readmits
// a node phi convicted; the next heartbeat after the latest does both.
func TestDetectorHeartbeatFromThePastIsIgnored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		start := time.Now()
		for s := range 5 {
			time.Sleep(time.Until(start.Add(time.Duration(s) * time.Second)))
			d.Heartbeat("a", time.Now())
		}
		last := start.Add(4 * time.Second)
		time.Sleep(time.Minute)
		synctest.Wait()
		require.False(t, d.IsAlive(replica.Endpoint{ID: "a"}))
		phi := d.Phi("a", time.Now())
		d.Heartbeat("a", last.Add(-time.Second))
		d.Heartbeat("a", last)
		assert.False(t, d.IsAlive(replica.Endpoint{ID: "a"}), "a stale heartbeat readmitted")
		assert.Equal(t, phi, d.Phi("a", time.Now()))
		now := time.Now()
		d.Heartbeat("a", now)
		assert.True(t, d.IsAlive(replica.Endpoint{ID: "a"}))
		// Mean of 2 s and four of 1 s: the minute of silence is not learnt.
		assert.InDelta(t, float64(6*time.Second)/float64(1200*time.Millisecond)/math.Ln10, d.Phi("a", now.Add(6*time.Second)), 1e-9)
		synctest.Wait() // OnChange runs on the detector's goroutine
		changes := rec.list()
		require.Len(t, changes, 2)
		assert.Equal(t, ring.HeartbeatsResumed, changes[1].Cause)
		assert.True(t, changes[1].At.Equal(now))
	})
}

// Once the window is full the oldest interval, the initial one first,
// leaves it: with WindowSize 3, beats every 500 ms, the mean is 500 ms
// and phi after 1 s of silence 2 / ln 10.
func TestDetectorFullWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{WindowSize: 3, CheckInterval: 100 * time.Millisecond})
		defer d.Close()
		start := time.Now()
		for i := range 10 {
			time.Sleep(time.Until(start.Add(time.Duration(i) * 500 * time.Millisecond)))
			d.Heartbeat("a", time.Now())
		}
		last := start.Add(4500 * time.Millisecond)
		assert.InDelta(t, 2/math.Ln10, d.Phi("a", last.Add(time.Second)), 1e-12)
		// Convicted once silence passes 8 ln 10 · 500 ms = 9.21 s: at the
		// check of +9.3 s.
		time.Sleep(time.Until(last.Add(9200 * time.Millisecond)))
		synctest.Wait()
		assert.True(t, d.IsAlive(replica.Endpoint{ID: "a"}))
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		assert.False(t, d.IsAlive(replica.Endpoint{ID: "a"}))
	})
}

// Heartbeats, outcomes, Forget and every query at once, from many
// goroutines (run with -race): afterwards each node's phi is exactly what
// its own heartbeats give, the failing nodes not forgotten are down, and
// those forgotten are neither down nor tracked.
func TestDetectorConcurrentReportsAndQueries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{CheckInterval: time.Hour, ReadmitAfter: time.Hour})
		defer d.Close()
		base := time.Now()
		const beaters, beats, failers = 6, 200, 6
		var wg sync.WaitGroup
		for g := range beaters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := "hb" + strconv.Itoa(g)
				for i := range beats {
					d.Heartbeat(id, base.Add(time.Duration(i*(g+1))*100*time.Millisecond))
					_ = d.IsAlive(replica.Endpoint{ID: id})
				}
			}()
		}
		for g := range failers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ep := replica.Endpoint{ID: "f" + strconv.Itoa(g), Datacenter: "dc1", Rack: "r1"}
				for i := range 50 {
					d.ReportOutcome(replica.Outcome{Endpoint: ep, Err: replicatest.ErrDown})
					if i%7 == 0 {
						d.ReportOutcome(replica.Outcome{Endpoint: ep})
					}
					if g%2 == 1 && i == 25 {
						d.Forget(ep.ID)
					}
				}
				if g%2 == 1 {
					d.Forget(ep.ID)
				}
			}()
		}
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 100 {
					_ = d.Down()
					_ = d.Nodes(base)
					_ = d.Phi("hb0", base)
					_ = d.IsAlive(replica.Endpoint{ID: "f0"})
				}
			}()
		}
		wg.Wait()
		synctest.Wait()
		at := base.Add(time.Hour)
		for g := range beaters {
			model, err := ring.NewArrivalWindow(1000, 2*time.Second, 2*time.Second)
			require.NoError(t, err)
			for i := range beats {
				model.Add(base.Add(time.Duration(i*(g+1)) * 100 * time.Millisecond))
			}
			id := "hb" + strconv.Itoa(g)
			assert.Equal(t, model.Phi(at), d.Phi(id, at), id)
			assert.True(t, d.IsAlive(replica.Endpoint{ID: id}), id)
		}
		assert.Equal(t, []string{"f0", "f2", "f4"}, d.Down())
		var tracked []string
		for _, s := range d.Nodes(at) {
			tracked = append(tracked, s.Endpoint.ID)
			if s.Endpoint.ID[0] == 'f' {
				assert.True(t, s.ConnectionFailed, s.Endpoint.ID)
				assert.Equal(t, "dc1", s.Endpoint.Datacenter)
			}
		}
		assert.Equal(t, []string{"f0", "f2", "f4", "hb0", "hb1", "hb2", "hb3", "hb4", "hb5"}, tracked)
	})
}

// A heartbeat of the empty ID names no node: it is ignored, as an outcome
// of one is, so no phantom node is tracked, convicted or reported.
func TestDetectorIgnoresAHeartbeatOfTheEmptyID(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		d.Heartbeat("", time.Now())
		time.Sleep(time.Minute)
		synctest.Wait()
		assert.Empty(t, d.Down())
		assert.Empty(t, rec.list())
		assert.Zero(t, d.Phi("", time.Now()))
	})
}

// A readmission is dated by its heartbeat, stamped with the time it
// arrived (Heartbeat's doc), not by when the embedder got round to report
// it: a heartbeat read off a queue 3 s late readmits its node as of its
// arrival, as the conviction is dated by the check that made it (37 s
// after the only heartbeat, as above).
func TestAReadmissionIsDatedByItsHeartbeatsArrival(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{})
		defer d.Close()
		start := time.Now()
		d.Heartbeat("a", start)
		time.Sleep(time.Minute)
		arrived := time.Now()
		time.Sleep(3 * time.Second) // the heartbeat waits in the embedder's queue
		d.Heartbeat("a", arrived)
		require.True(t, d.IsAlive(replica.Endpoint{ID: "a"}))
		wantChanges(t, rec,
			change("a", false, ring.HeartbeatsStopped, start.Add(37*time.Second)),
			change("a", true, ring.HeartbeatsResumed, arrived))
	})
}
