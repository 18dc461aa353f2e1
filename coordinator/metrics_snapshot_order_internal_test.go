package coordinator

import (
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
)

// A snapshot taken while reads count never shows more reads ended than
// begun: more errors than reads, more hedges won or lost than sent, more
// repairs ended than sent, as an exporter's dashboard would (a negative
// "repairs in flight"). Counts are loaded one at a time, so a snapshot must
// load what ends before what begins: loaded first, reads and repairs sent
// were behind the errors and acknowledgements of the reads that began and
// ended between the two loads.
func TestSnapshotNeverShowsMoreEndedThanBegun(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two cores to count while the snapshot loads")
	}
	var m counters
	h := &m.hot[0]
	countMeanwhile(t, func() { // reads that begin, hedge, repair and end
		h.reads[consistency.Quorum].Add(1)
		m.speculative.Add(1)
		m.repairsSent.Add(1)
		m.repairsAcked.Add(1)
		m.hedgeWins.Add(1)
		m.timeouts.Add(1)
	})
	var errs, hedges, repairs int
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		tm := m.snapshot()
		if tm.Timeouts > tm.Reads {
			errs++
		}
		if tm.HedgeWins > tm.SpeculativeRetries {
			hedges++
		}
		if tm.RepairsAcked > tm.RepairsSent {
			repairs++
		}
	}
	if errs+hedges+repairs > 0 {
		t.Fatalf("snapshots with more timeouts than reads: %d, more hedge wins than hedges: %d, "+
			"more repairs acknowledged than sent: %d", errs, hedges, repairs)
	}
}

// Nor does a replica's row show more requests missed than ended (sent and
// not out), more timed out or failed than missed, or more out than sent:
// Requests was loaded last, Outstanding's ends before it, Misses before
// those, and Timeouts and Failures first, each counted after the one
// loaded after it. The requests are the snitch's own (score.sent and
// score.ended), timing out and failing by turns. (A review found a miss
// counted before its end: a row showed 240 misses of 239 requests ended.)
func TestReplicaMetricsNeverShowMoreEndedThanSent(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two cores to count while the snapshot loads")
	}
	s := newSnitch(SnitchConfig{})
	ep := replica.Endpoint{ID: "a", Datacenter: "dc1", Rack: "r1"}
	sc := s.entry(&ep)
	fail := errors.New("replica failed")
	var n int
	countMeanwhile(t, func() { // requests that are sent and missed, as the snitch counts them
		n++
		sc.ended(sc.sent(), time.Millisecond, time.Now(), fail, false, n%2 == 0, 0)
	})
	var misses, outstanding int
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		for _, rm := range s.replicaMetrics() {
			if rm.Misses > rm.Requests-rm.Outstanding || rm.Timeouts+rm.Failures > rm.Misses {
				misses++
			}
			if rm.Outstanding < 0 || rm.Outstanding > rm.Requests {
				outstanding++
			}
		}
	}
	if misses+outstanding > 0 {
		t.Fatalf("rows with more misses than requests ended or timeouts and failures than misses: %d, with requests out below 0 or above requests: %d",
			misses, outstanding)
	}
}

// countMeanwhile calls count on another goroutine, as fast as it can,
// until the test ends.
func countMeanwhile(t *testing.T, count func()) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	t.Cleanup(func() {
		close(stop)
		wg.Wait()
	})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			for range 64 {
				count()
			}
		}
	})
}
