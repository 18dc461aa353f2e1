package main

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// workload drives reads through a coordinator and records their latency.
type workload struct {
	c       *coordinator.Coordinator
	cluster *replicatest.Cluster
	keys    []string
	o       options
	s       scenario
	lat     *recorder // nil while warming up
	errors  atomic.Int64
	phase   uint64 // seeds each phase's random choices apart
}

// warmUp reads until the coordinator has refreshed its threshold a few
// times from what it saw, and at least a quarter as many reads as will be
// measured were made.
func (w *workload) warmUp() {
	start := time.Now()
	for done := 0; done < w.o.reads/4 || time.Since(start) < 2*thresholdRefresh; done += 200 {
		w.run(200, nil)
	}
}

// run issues reads partition reads in the scenario's pattern, recording
// their latency in lat unless it is nil.
func (w *workload) run(reads int, lat *recorder) {
	w.lat = lat
	w.phase++
	switch {
	case w.s.fanout > 0:
		w.closedLoop(w.o.concurrency/2, max(1, reads*fanoutRequests/w.s.fanout), w.fanoutRequest)
	case w.s.openLoop:
		w.openLoop(reads)
	default:
		w.closedLoop(w.o.concurrency, reads, w.singleRead)
	}
}

func (w *workload) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(w.o.seed, w.phase<<32|stream))
}

// closedLoop runs n readers that issue requests back to back until total
// requests were made.
func (w *workload) closedLoop(n, total int, request func(rng *rand.Rand)) {
	var left atomic.Int64
	left.Store(int64(total))
	var wg sync.WaitGroup
	for i := range n {
		rng := w.rng(uint64(i))
		wg.Go(func() {
			for left.Add(-1) >= 0 {
				request(rng)
			}
		})
	}
	wg.Wait()
}

func (w *workload) singleRead(rng *rand.Rand) {
	d, err := w.readOne(context.Background(), w.keys[rng.IntN(len(w.keys))])
	w.book(d, err)
}

// book records one read's latency and counts its error. A failed read is
// recorded too, at the time it failed: its caller waited that long.
func (w *workload) book(d time.Duration, err error) {
	if err != nil {
		w.errors.Add(1)
	}
	w.record(d)
}

func (w *workload) record(d time.Duration) {
	if w.lat != nil {
		w.lat.record(d)
	}
}

// fanoutRequests scales the fan-out scenario: it makes as many requests
// as a tenth of the reads asked for, each reading s.fanout partitions, so
// that its percentiles rest on enough requests.
const fanoutRequests = 10

// fanoutRequest reads fanout random keys in parallel; the request takes as
// long as its slowest read.
func (w *workload) fanoutRequest(rng *rand.Rand) {
	start := time.Now()
	var wg sync.WaitGroup
	for range w.s.fanout {
		key := w.keys[rng.IntN(len(w.keys))]
		wg.Go(func() {
			if _, err := w.readOne(context.Background(), key); err != nil {
				w.errors.Add(1)
			}
		})
	}
	wg.Wait()
	w.record(time.Since(start))
}

// openLoop issues reads at a fixed Poisson rate, whatever their latency,
// as independent clients do. While measuring, the cluster's slowdown ramps
// from 1 to the scenario's over the first 30 % of the reads and stays there,
// the replicas at peakUtilization: the load under which extra requests can
// tip them into saturation.
func (w *workload) openLoop(reads int) {
	rate := w.arrivalRate()
	rng := w.rng(1 << 31)
	ramp := time.Duration(0.3 * float64(reads) / rate * float64(time.Second))
	start := time.Now()
	next := start
	var wg sync.WaitGroup
	for range reads {
		next = next.Add(time.Duration(rng.ExpFloat64() / rate * float64(time.Second)))
		time.Sleep(time.Until(next))
		if w.lat != nil {
			w.rampSlowdown(time.Since(start), ramp)
		}
		key := w.keys[rng.IntN(len(w.keys))]
		wg.Go(func() { w.book(w.readOne(context.Background(), key)) })
	}
	wg.Wait()
}

// peakUtilization is how busy the replicas' workers are at the end of the
// slowdown when reads are not hedged: near saturation, with room for the
// few percent of extra requests a budget allows, not for a storm.
const peakUtilization = 0.85

// arrivalRate is the read rate at which the replicas reach peakUtilization
// at the end of the slowdown: each QUORUM read puts two requests on three
// replicas of s.workers workers each.
func (w *workload) arrivalRate() float64 {
	const sigma = 0.4 // healthyLatency's
	mean := 0.002 * math.Exp(sigma*sigma/2) * w.s.slowdownTo
	return peakUtilization * 3 * float64(w.s.workers) / (2 * mean)
}

func (w *workload) rampSlowdown(elapsed, total time.Duration) {
	f := 1 + (w.s.slowdownTo-1)*min(1, float64(elapsed)/float64(total))
	w.cluster.SetSlowdown(f)
}
