package ring_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// With Replicas, a node whose failed connection has no Probe is still
// looked up every CheckInterval while it waits for ReadmitAfter: replaced
// at +1.5 s by a connection that answers probes, it is probed, and
// readmitted, within a CheckInterval, not left out of reads until
// ReadmitAfter (5 s). It was, as the wait looked for no new connection.
func TestAReplacementOfANonProberIsProbedWithinCheckInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		failed := hidden{node("a", "dc1")}
		c := newConns("a", failed)
		d, rec := newDetector(t, ring.DetectorConfig{Replicas: c.replicas})
		defer d.Close()
		convicted := time.Now()
		d.ReportOutcome(replica.Outcome{Replica: failed, Endpoint: failed.Endpoint(), Err: replicatest.ErrDown})
		time.Sleep(1500 * time.Millisecond)
		fresh := prober("a", replicatest.Fault{}) // the replacement, up, a Prober
		c.set("a", fresh)
		time.Sleep(1500 * time.Millisecond) // now +3 s: past the CheckInterval after the replacement
		synctest.Wait()
		if !d.IsAlive(replica.Endpoint{ID: "a"}) {
			t.Errorf("at +3 s, 1.5 s after the replacement that answers probes, a is still down; probes of the new connection: %d", probeCount(fresh))
		}
		if got := rec.list(); len(got) != 2 || got[1].Cause != ring.ProbeSucceeded || got[1].At.Sub(convicted) > 2500*time.Millisecond {
			t.Errorf("changes %v, want a readmission by probe by +2.5 s", got)
		}
	})
}

// ReadmitAfter counts from the conviction, as its doc says, also when the
// node's connection loses its Probe on the way: the failed connection is a
// Prober that stays down, and the node is replaced at +2.5 s by one
// without Probe. It is readmitted at +5 s, not ReadmitAfter after the
// replacement was seen (+8 s, and up to a probe backoff's 60 s later).
func TestAReplacementWithoutProbeIsReadmittedReadmitAfterTheConviction(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		failed := prober("a", replicatest.Down())
		c := newConns("a", failed)
		d, rec := newDetector(t, ring.DetectorConfig{Replicas: c.replicas})
		defer d.Close()
		convicted := time.Now()
		_ = read(d, failed, time.Second)
		time.Sleep(2500 * time.Millisecond)
		c.set("a", hidden{node("a", "dc1")})
		time.Sleep(time.Minute)
		synctest.Wait()
		got := rec.list()
		if len(got) != 2 || !got[1].Alive {
			t.Fatalf("changes %v", got)
		}
		if after := got[1].At.Sub(convicted); after != 5*time.Second {
			t.Errorf("readmitted (%v) %v after the conviction, want ReadmitAfter = 5s", got[1].Cause, after)
		}
	})
}

// A replica readmitted at ReadmitAfter has not answered since its
// conviction, so its count of failures in a row goes on: with
// ConnectionFailures 3, its next refusal convicts it again, as the package
// doc says ("convicted again by its next failure if it is still down"),
// not the third one after it.
func TestAReplicaReadmittedWithoutAnAnswerIsConvictedByItsNextFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, _ := newDetector(t, ring.DetectorConfig{ConnectionFailures: 3})
		defer d.Close()
		a := hidden{node("a", "dc1")}
		_ = a.Replica.(*replicatest.Replica).SetFault(replicatest.Down())
		for range 3 {
			_ = read(d, a, time.Second)
		}
		if d.IsAlive(a.Endpoint()) {
			t.Fatal("not convicted by three refusals")
		}
		time.Sleep(5500 * time.Millisecond) // ReadmitAfter
		synctest.Wait()
		if !d.IsAlive(a.Endpoint()) {
			t.Fatal("not readmitted after ReadmitAfter")
		}
		_ = read(d, a, time.Second) // still down: no answer since the conviction
		ns := d.Nodes(time.Now())
		if d.IsAlive(a.Endpoint()) {
			t.Errorf("still down, refused again, but not convicted by its next failure; Nodes: %+v", ns)
		}
	})
}

// A replica readmitted because a probe answered starts its count of
// failures in a row again, as readmit's doc says: with ConnectionFailures
// 2, one refusal after the readmission leaves it up, with Failures 1; it
// takes two more to convict it again, not the next one.
func TestAReplicaReadmittedByAProbeStartsItsFailuresAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, rec := newDetector(t, ring.DetectorConfig{ConnectionFailures: 2})
		defer d.Close()
		a := prober("a", replicatest.Fault{}) // answers probes
		refused := replica.Outcome{Replica: a, Endpoint: a.Endpoint(), Err: replicatest.ErrDown}
		d.ReportOutcome(refused)
		d.ReportOutcome(refused)
		time.Sleep(time.Minute)
		synctest.Wait()
		if got := rec.list(); len(got) != 2 || got[1].Cause != ring.ProbeSucceeded {
			t.Fatalf("changes %v, want a conviction and a readmission by probe", got)
		}
		d.ReportOutcome(refused)
		if ns := d.Nodes(time.Now()); !d.IsAlive(a.Endpoint()) || len(ns) != 1 || ns[0].Failures != 1 {
			t.Errorf("one refusal after a readmission by probe: alive %v, Nodes %+v; want alive with Failures 1",
				d.IsAlive(a.Endpoint()), ns)
		}
	})
}
