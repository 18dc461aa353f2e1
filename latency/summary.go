package latency

import (
	"cmp"
	"time"
)

// Summary describes the samples of a window as a Snapshot does, without a
// copy of its buckets.
//
// A Summary is a plain value, safe for concurrent use. In JSON its
// durations are nanoseconds.
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
	return v.summarize(&tot, qs, quantiles[:min(len(qs), len(quantiles))])
}

// summarize is Summarize over the window whose block totals are tot, for
// quantiles no longer than qs. Count comes from tot, and so does how many
// samples the rest is of: Min, Max, Mean and every quantile come from one
// walk up the buckets of the blocks, each read once, that stops at the
// samples tot counted. Samples recorded while it reads (records take no
// lock) land in blocks read after tot was: a quantile found by reading its
// block again (as Quantile does) could fall below one found before it (a
// P999 under P99, seen in an exporter's scrapes of new tables), and one
// found by walking past tot's count, below the Max of the samples it
// counted.
func (v *view) summarize(tot *blockTotals, qs []float64, quantiles []time.Duration) Summary {
	s := Summary{Clamped: int64(tot[numBlocks]), Negative: int64(v.special(1))}
	for _, c := range tot {
		s.Count += int64(c)
	}
	// Until its bucket is found, a quantile holds its rank, negated.
	for i := range quantiles {
		quantiles[i] = -time.Duration(rank(qs[i], uint64(s.Count)))
	}
	var sum float64
	var n uint64 // samples walked
	inBlocks := uint64(s.Count - s.Clamped)
	for o := 0; o < numBlocks && n < inBlocks; o++ {
		if tot[o] == 0 {
			continue
		}
		c := v.block(o)
		for i, k := range c {
			if k = min(k, inBlocks-n); k == 0 {
				continue
			}
			// No bucket's midpoint is 0, so a zero Min is one not yet set.
			mid := bucketMid(o<<subBits + i)
			s.Min, s.Max = cmp.Or(s.Min, mid), mid
			sum += float64(k) * float64(mid)
			n += k
			for j, d := range quantiles {
				if d < 0 && uint64(-d) <= n {
					quantiles[j] = mid
				}
			}
		}
	}
	if s.Clamped > 0 {
		s.Min, s.Max = cmp.Or(s.Min, MaxLatency), MaxLatency
		sum += float64(s.Clamped) * float64(MaxLatency)
		n += uint64(s.Clamped)
	}
	for j, d := range quantiles {
		if d < 0 { // among the clamped, or past what the blocks held when read
			quantiles[j] = s.Max
		}
	}
	if n > 0 {
		s.Mean = time.Duration(sum / float64(n))
	}
	return s
}
