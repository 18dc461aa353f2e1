package latency

import (
	"cmp"
	"time"
)

// Summary describes the samples of a window as a Snapshot does, without a
// copy of its buckets.
//
// A Summary is a plain value, safe for concurrent use.
type Summary struct {
	// Count, Min, Max, Mean, Clamped and Negative are as in Snapshot.
	Count             int64
	Min, Max, Mean    time.Duration
	Clamped, Negative int64
}

// Summarize returns the Summary of the window, and stores in quantiles[i]
// the qs[i]-quantile as Quantile defines it, for every i of both slices. It
// reads the window once and does not allocate, so that one tracker can serve
// both a table's threshold and its metrics:
//
//	var q [3]time.Duration
//	s := t.Summarize([]float64{0.5, 0.99, 0.999}, q[:])
func (t *Tracker) Summarize(qs []float64, quantiles []time.Duration) Summary {
	v := t.lockView()
	defer t.mu.Unlock()
	tot := v.totals()
	s := v.summary(&tot)
	for i := range min(len(qs), len(quantiles)) {
		quantiles[i] = 0
		if r := rank(qs[i], uint64(s.Count)); r > 0 {
			quantiles[i] = v.bucketOfRank(&tot, r)
		}
	}
	return s
}

// summary describes the window whose block totals are tot. Count comes
// from tot, so that it agrees with the ranks of the quantiles.
func (v *view) summary(tot *blockTotals) Summary {
	// No bucket's midpoint is 0, so a zero Min is one not yet set.
	s := Summary{Clamped: int64(tot[numBlocks]), Negative: int64(v.special(1))}
	var sum float64
	var n uint64
	for o := range numBlocks {
		if tot[o] == 0 {
			continue
		}
		c := v.block(o)
		for i, k := range c {
			if k > 0 {
				mid := bucketMid(o<<subBits + i)
				s.Min, s.Max = cmp.Or(s.Min, mid), mid
				sum += float64(k) * float64(mid)
				n += k
			}
		}
		s.Count += int64(tot[o])
	}
	if s.Clamped > 0 {
		s.Min, s.Max = cmp.Or(s.Min, MaxLatency), MaxLatency
		sum += float64(s.Clamped) * float64(MaxLatency)
		n += uint64(s.Clamped)
		s.Count += s.Clamped
	}
	if n > 0 {
		s.Mean = time.Duration(sum / float64(n))
	}
	return s
}
