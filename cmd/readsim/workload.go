package main

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/readpath/readpath/consistency"
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
	// thresholds records the threshold each measured read ran with, when
	// its policy speculates; nil while warming up.
	thresholds *thresholdLog
	errors     atomic.Int64
	phase      uint64 // seeds each phase's random choices apart
}

// warmUp reads until the coordinator has refreshed its threshold a few
// times from what it saw, and has made at least a quarter as many
// partition reads as a scenario of single reads measures: what its
// threshold and snitch need, whether the reads come one by one or a
// hundred to a fan-out request. It returns how many partition reads it made.
func (w *workload) warmUp() int {
	start := time.Now()
	chunk := max(1, w.measured()/16)
	perRequest := max(1, w.s.fanout)
	done := 0
	for done*perRequest < w.reads()/4 || time.Since(start) < 2*thresholdRefresh {
		w.run(chunk, nil)
		done += chunk
	}
	return done * perRequest
}

// measured is how many latencies a run measures: reads, or fan-out
// requests.
func (w *workload) measured() int {
	if w.s.fanout > 0 {
		return fanoutRequests(w.reads())
	}
	return w.reads()
}

// quickSlowdownReads is how many reads -quick measures in the slowdown
// scenarios, unless -reads says otherwise: as many as a full run. Their
// ramp and peak last a number of reads, and an unbudgeted hedge storm
// needs about a second at the peak for the replicas' queues to build:
// with -quick's 1,000 reads (0.2 s at the peak) ALWAYS barely moved the
// p50 and a fixed 10ms threshold lowered the p99 instead of raising it.
const quickSlowdownReads = 4000

// reads is the partition reads the scenario's run stands for.
func (w *workload) reads() int {
	if w.s.openLoop && w.o.quick && !w.o.readsSet {
		return max(w.o.reads, quickSlowdownReads)
	}
	return w.o.reads
}

// run takes n latencies in the scenario's pattern, recording them in lat
// unless it is nil.
func (w *workload) run(n int, lat *recorder) {
	w.lat = lat
	w.phase++
	switch {
	case w.s.fanout > 0:
		w.openLoop(n, fanoutRate, w.nextFanout)
	case w.s.openLoop:
		w.openLoop(n, w.arrivalRate(), w.nextSlowdownRead(n))
	default:
		w.closedLoop(w.o.concurrency, n, w.singleRead)
	}
}

func (w *workload) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(w.o.seed, w.phase<<32|stream))
}

// closedLoop runs n readers that issue requests back to back until total
// requests were made: at most total readers, as the others would find no
// request left to make.
func (w *workload) closedLoop(n, total int, request func(rng *rand.Rand)) {
	var left atomic.Int64
	left.Store(int64(total))
	var wg sync.WaitGroup
	for i := range min(n, total) {
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

// ranWith records the threshold a measured read ran with.
func (w *workload) ranWith(tr coordinator.Trace) {
	if w.thresholds != nil && tr.Speculate && tr.Threshold > 0 {
		w.thresholds.add(tr.Threshold)
	}
}

// fanoutRequests is how many fan-out requests stand for reads measured
// reads: a quarter as many, so that the default 4,000 give 1,000 requests,
// enough for a p99.9 that is not simply the largest latency.
func fanoutRequests(reads int) int { return max(1, reads/4) }

// fanoutRate is how many fan-out requests arrive per second. The
// scenario is about the statistics of the slowest of 100 reads, not about
// load, so its requests must rarely overlap: each one's burst of 100
// reads (300 goroutines woken at once) takes a 2-vCPU machine about a
// millisecond to drain. At 200 a second overlapping bursts kept
// goroutines waiting over 5 ms to run (p99) and flagged every fan-out
// row; at 100 they wait 2 to 3 ms.
const fanoutRate = 100

// nextFanout picks a fan-out request's keys: distinct ones, so that a
// request reads as many partitions as the scenario says.
func (w *workload) nextFanout(rng *rand.Rand, _ time.Duration) func() {
	n := min(w.s.fanout, len(w.keys))
	keys, seen := make([]string, 0, n), make(map[int]bool, n)
	for len(keys) < n {
		if i := rng.IntN(len(w.keys)); !seen[i] {
			seen[i] = true
			keys = append(keys, w.keys[i])
		}
	}
	return func() { w.fanoutRequest(keys) }
}

// fanoutRequest reads keys in parallel with one ReadMany and records how
// long the slowest took: a multi-get, as The Tail at Scale describes.
func (w *workload) fanoutRequest(keys []string) {
	start := time.Now()
	res, err := w.c.ReadMany(context.Background(), coordinator.ManyRequest{
		Table: table, Keys: keys, Level: consistency.Quorum, Concurrency: len(keys),
	})
	if err != nil {
		w.errors.Add(int64(len(keys)))
	}
	for _, r := range res {
		if r.Err != nil {
			w.errors.Add(1)
		}
		w.ranWith(r.Result.Trace)
	}
	w.record(time.Since(start))
}

// openLoop starts n requests at Poisson arrivals of rate per second,
// whatever the latency of those before, as independent clients do, and
// waits for them all. next makes each request, given the time since the
// first; the request runs on a goroutine of its own.
func (w *workload) openLoop(n int, rate float64, next func(rng *rand.Rand, elapsed time.Duration) func()) {
	rng := w.rng(1 << 31)
	start := time.Now()
	at := start
	var wg sync.WaitGroup
	for range n {
		at = at.Add(time.Duration(rng.ExpFloat64() / rate * float64(time.Second)))
		time.Sleep(time.Until(at))
		wg.Go(next(rng, time.Since(start)))
	}
	wg.Wait()
}

// nextSlowdownRead returns the maker of the slowdown scenarios' reads,
// out of reads in all. While measuring, the cluster's slowdown ramps from
// 1 to the scenario's over the first 30 % of the reads and stays there,
// the replicas at peakUtilization: the load under which extra requests
// can tip them into saturation.
func (w *workload) nextSlowdownRead(reads int) func(*rand.Rand, time.Duration) func() {
	ramp := time.Duration(0.3 * float64(reads) / w.arrivalRate() * float64(time.Second))
	return func(rng *rand.Rand, elapsed time.Duration) func() {
		if w.lat != nil {
			w.rampSlowdown(elapsed, ramp)
		}
		key := w.keys[rng.IntN(len(w.keys))]
		return func() { w.book(w.readOne(context.Background(), key)) }
	}
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
