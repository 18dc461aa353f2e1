package main

import (
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// recorder collects exact latencies (3 significant digits) from many
// goroutines. The client-side view: what a caller of Read waited.
type recorder struct {
	mu sync.Mutex
	h  *hdrhistogram.Histogram
}

// longest is the longest latency a recorder tells apart; a longer one
// (a suspended VM, a stopped process) is recorded as longest rather than
// dropped, which the histogram does with a value past its range.
const longest = time.Hour

func newRecorder() *recorder {
	return &recorder{h: hdrhistogram.New(1, longest.Microseconds(), 3)}
}

// micros is d in whole microseconds, within the recorder's range.
func micros(d time.Duration) int64 { return min(max(1, d.Microseconds()), longest.Microseconds()) }

func (r *recorder) record(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.h.RecordValue(micros(d))
}

// recordCorrected records d, and for a d of more than interval the
// values d-interval, d-2*interval, … down to interval, which samples taken
// every interval would have seen.
func (r *recorder) recordCorrected(d, interval time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.h.RecordCorrectedValue(micros(d), interval.Microseconds())
}

// quantileMS returns the q-th percentile (0-100) in milliseconds.
func (r *recorder) quantileMS(q float64) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return float64(r.h.ValueAtQuantile(q)) / 1000
}

func (r *recorder) maxMS() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return float64(r.h.Max()) / 1000
}

// count returns how many latencies were recorded.
func (r *recorder) count() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.h.TotalCount()
}
