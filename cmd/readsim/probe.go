package main

import (
	"runtime/metrics"
	"time"
)

// probeInterval is how long the probe sleeps between measurements: about
// the scale of the replicas' modelled latency, so that the probe wakes as
// often as a replica's timer does.
const probeInterval = time.Millisecond

// probe measures how late this machine wakes a sleeping goroutine: it
// sleeps probeInterval again and again and records by how much each sleep
// overran. It sees everything that delays the simulation's own timers and
// goroutines: the platform's timer resolution, the Go scheduler's run
// queues, and other processes on the same cores. It also reads the
// runtime's histogram of scheduling delays (/sched/latencies:seconds) at
// its start and end. A probe is used by one goroutine.
type probe struct {
	stop  chan struct{}
	done  chan struct{}
	late  *recorder
	sched *metrics.Float64Histogram
}

// meter starts measuring the machine and returns the function that stops
// and tells what it measured: startProbe, or a stand-in in tests.
type meter func() (end func() timing)

// startProbe is the meter that probes this machine.
func startProbe() func() timing {
	p := &probe{stop: make(chan struct{}), done: make(chan struct{}), late: newRecorder(), sched: schedLatencies()}
	go p.loop()
	return p.end
}

func (p *probe) loop() {
	defer close(p.done)
	t := time.NewTimer(probeInterval)
	defer t.Stop()
	for {
		start := time.Now()
		t.Reset(probeInterval)
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.observe(time.Since(start) - probeInterval)
		}
	}
}

// observe records one sleep's lateness, and the wake-ups it kept from
// happening: a stall of 100 ms is 100 wake-ups late by 100 down to 1 ms
// (HdrHistogram's correction for coordinated omission), as every timer
// and read in flight meanwhile was. Counted once, it was one late wake-up
// among a thousand: the p99 missed it while the reads' p99.9 went from
// 8 to 111 ms.
func (p *probe) observe(late time.Duration) {
	p.late.recordCorrected(late, probeInterval)
}

// end stops the probe and returns what it measured.
func (p *probe) end() timing {
	close(p.stop)
	<-p.done
	return timing{
		LateP99:  round2(p.late.quantileMS(99)),
		SchedP99: round2(1000 * quantileSeconds(histDelta(schedLatencies(), p.sched), 0.99)),
	}
}

// idleProbe is how long the machine is probed before each run: fifty
// wake-ups, whose p99 is their largest lateness.
const idleProbe = 50 * time.Millisecond

// measureIdle measures for idleProbe with nothing else running: what the
// platform's timers and the machine's other processes give an idle
// program. It returns the p99 of the lateness.
func measureIdle(m meter) float64 {
	end := m()
	time.Sleep(idleProbe)
	return end().LateP99
}

const schedLatencyMetric = "/sched/latencies:seconds"

func schedLatencies() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: schedLatencyMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil // not in this runtime: the probe's lateness still counts
	}
	return s[0].Value.Float64Histogram()
}
