package latency

import "time"

// Snapshot is a copy of a tracker's window at one moment. Every duration in
// it is a bucket midpoint, within 0.8 % of the recorded value from 1 µs to
// MaxLatency; Mean is the mean of those midpoints.
//
// A Snapshot is an immutable value, safe for concurrent use. In JSON its
// durations are nanoseconds, and its buckets, unexported, are left out:
// take the quantiles an exporter needs with Quantile first.
type Snapshot struct {
	// Count is the number of samples in the window, clamped ones included,
	// negative ones not.
	Count int64
	// Min, Max and Mean describe those samples; all are 0 when Count is 0.
	Min, Max, Mean time.Duration
	// Clamped counts the samples of the window that were MaxLatency or
	// longer; they are part of Count and counted as MaxLatency.
	Clamped int64
	// Negative counts the negative samples of the window; they are not part
	// of Count or of any statistic.
	Negative int64

	buckets []bucketCount // the non-empty buckets, in increasing order
}

type bucketCount struct {
	bucket uint16
	count  uint32
}

// Snapshot copies the window. It allocates one slice of the non-empty
// buckets (none for a window of no samples, whose Snapshot is the zero
// Snapshot but for Negative, its count of negative samples); it is meant
// for metrics and tests, not the read path.
func (t *Tracker) Snapshot() Snapshot {
	var w counts
	t.readWindow(&w)
	s := Snapshot{Clamped: int64(w[clampedBucket]), Negative: int64(w[negativeBucket])}
	if n := nonEmpty(&w); n > 0 {
		s.buckets = make([]bucketCount, 0, n)
	}
	var sum float64
	for i, c := range w[:clampedBucket+1] {
		if c > 0 {
			s.buckets = append(s.buckets, bucketCount{uint16(i), c})
			s.Count += int64(c)
			sum += float64(c) * float64(bucketMid(i))
		}
	}
	if s.Count > 0 {
		s.Min = bucketMid(int(s.buckets[0].bucket))
		s.Max = bucketMid(int(s.buckets[len(s.buckets)-1].bucket))
		s.Mean = time.Duration(sum / float64(s.Count))
	}
	return s
}

// counts is one number per bucket of a window. A bucket's count is exact
// while it gets fewer than 2^32 samples in a window.
type counts [numBuckets]uint32

// readWindow slides the window up to now and stores its counts in w.
func (t *Tracker) readWindow(w *counts) {
	v := t.lockView()
	defer t.mu.Unlock()
	tot := v.totals()
	for o := range numBlocks {
		if tot[o] == 0 {
			continue
		}
		c := v.block(o)
		for i, n := range c {
			w[o<<subBits+i] = uint32(n)
		}
	}
	w[clampedBucket] = uint32(v.special(0))
	w[negativeBucket] = uint32(v.special(1))
}

// nonEmpty counts the buckets of w that hold samples, negative ones aside.
func nonEmpty(w *counts) int {
	n := 0
	for _, c := range w[:clampedBucket+1] {
		if c > 0 {
			n++
		}
	}
	return n
}

// Quantile returns the q-quantile of the snapshot's samples, defined as for
// Tracker.Quantile; 0 for an empty snapshot.
func (s Snapshot) Quantile(q float64) time.Duration {
	r := rank(q, uint64(s.Count))
	var seen uint64
	for _, b := range s.buckets {
		seen += uint64(b.count)
		if seen >= r {
			return bucketMid(int(b.bucket))
		}
	}
	return 0
}
