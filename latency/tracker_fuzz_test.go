package latency_test

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/readpath/readpath/latency"
)

// FuzzTrackerAgreesWithNearestRank records fuzzed samples (negative, zero,
// tiny, in range, past MaxLatency) on a frozen clock and checks the tracker
// against the sorted samples: Count, Negative and Clamped exactly; Min, Max,
// Mean and the nearest-rank quantile of any q to the promised precision;
// and Snapshot.Quantile and Summarize agree with Tracker.Quantile.
func FuzzTrackerAgreesWithNearestRank(f *testing.F) {
	f.Add([]byte{}, uint16(0))
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 0, 0}, uint16(65535))
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 40, 1, 2, 3, 4, 5, 6, 7, 8}, uint16(32768))
	f.Add([]byte{63, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 30, 0, 0, 0, 0, 0x10, 0, 0, 0}, uint16(655))
	// Nine bytes a sample: a right shift, then 8 bytes of int64.
	f.Fuzz(func(t *testing.T, data []byte, qBits uint16) {
		tr := frozen()
		var in []time.Duration // the non-negative samples, clamped
		var negative, clamped int64
		for i := 0; i+9 <= len(data) && i < 9*200; i += 9 {
			d := time.Duration(int64(binary.LittleEndian.Uint64(data[i+1:i+9])) >> (data[i] % 64))
			tr.Record(d)
			switch {
			case d < 0:
				negative++
				continue
			case d >= latency.MaxLatency:
				clamped++
				d = latency.MaxLatency
			}
			in = append(in, d)
		}
		slices.Sort(in)
		s := tr.Snapshot()
		n := int64(len(in))
		if s.Count != n || s.Negative != negative || s.Clamped != clamped {
			t.Fatalf("Count %d Negative %d Clamped %d, want %d %d %d", s.Count, s.Negative, s.Clamped, n, negative, clamped)
		}
		q := float64(qBits) / math.MaxUint16
		got := tr.Quantile(q)
		if sq := s.Quantile(q); sq != got {
			t.Fatalf("Snapshot.Quantile(%v) = %v, Tracker.Quantile %v", q, sq, got)
		}
		var qs [1]time.Duration
		sum := tr.Summarize([]float64{q}, qs[:])
		if qs[0] != got || sum.Count != s.Count || sum.Min != s.Min || sum.Max != s.Max || sum.Mean != s.Mean ||
			sum.Clamped != s.Clamped || sum.Negative != s.Negative {
			t.Fatalf("Summarize %+v %v, Snapshot %+v %v", sum, qs[0], s, got)
		}
		if n == 0 {
			if got != 0 || s.Min != 0 || s.Max != 0 || s.Mean != 0 {
				t.Fatalf("empty window: quantile %v, snapshot %+v", got, s)
			}
			return
		}
		if r := nearestRank(q, n); !withinPrecision(in[r-1], got) {
			t.Fatalf("Quantile(%v) of %d samples = %v, want rank %d: %v", q, n, got, r, in[r-1])
		}
		if !withinPrecision(in[0], s.Min) || !withinPrecision(in[n-1], s.Max) {
			t.Fatalf("Min %v Max %v, want %v %v", s.Min, s.Max, in[0], in[n-1])
		}
		var total float64
		for _, d := range in {
			total += float64(d)
		}
		// Each midpoint is within max(v/128, 4 ns) of its v; 1 ns more for rounding.
		if mean := total / float64(n); math.Abs(float64(s.Mean)-mean) > mean/128+5 {
			t.Fatalf("Mean %v, want %v", s.Mean, time.Duration(mean))
		}
	})
}

// nearestRank is the 1-based rank of the q-quantile of n samples as
// Tracker.Quantile's doc defines it: ⌈q·n⌉, at least 1, where a q·n within
// q·n·2⁻⁵⁰ of an integer is that integer. exactQuantile reads q as its
// shortest decimal instead, which differs for a q such as k/65535.
func nearestRank(q float64, n int64) int64 {
	x := q * float64(n)
	r := math.Ceil(x)
	if near := math.Round(x); math.Abs(x-near) <= x*0x1p-50 {
		r = near
	}
	return max(int64(r), 1)
}
