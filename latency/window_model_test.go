package latency_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/latency"
)

// grammarQuantiles are the percentiles a speculative retry policy can name,
// written as the grammar writes them.
var grammarQuantiles = []string{"0.0001p", "1p", "50p", "90p", "95p", "99p", "99.5p", "99.9p", "99.95p", "99.99p", "99.999p", "99.9999p", "55PERCENTILE", "99.9PERCENTILE"}

// modelSample is one recorded sample with the sub-window it must count in.
type modelSample struct {
	d     time.Duration
	epoch int64
}

// The tracker agrees with a model of its window (a sample counts from the
// sub-window in force when it was recorded to two sub-windows later) at
// every quantile the policy grammar can name, for samples from below zero
// to past MaxLatency and a clock that may jump forwards or backwards (a
// query resumes the current sub-window where the clock went back).
func TestTrackerMatchesAWindowModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		window := time.Duration(rapid.Int64Range(3, int64(time.Hour)).Draw(t, "window"))
		start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		at := start
		tr := latency.NewTracker(latency.WithWindow(window), latency.WithClock(func() time.Time { return at }))
		sub := tr.Window() / 3
		draw := fullRange(t, r)
		var model []modelSample
		// The tracker's sub-window, and what it adds to the clock: a clock
		// that steps back behind the current sub-window resumes it at its
		// start, at the next query.
		var epoch int64
		var skew time.Duration
		// Lazy: no query before the samples, so Record alone notices (or
		// not) that a sub-window ended; the model then bounds the window.
		lazy := rapid.Bool().Draw(t, "lazy")
		steps := rapid.IntRange(1, 40).Draw(t, "steps")
		for range steps {
			at = at.Add(clockStep(t, sub))
			el := at.Sub(start) + skew
			if begin := time.Duration(epoch) * sub; el < begin {
				skew += begin - el
				el = begin
			}
			epoch = max(epoch, int64(el/sub))
			if !lazy {
				tr.Quantile(0.5) // slides the window, so every sample's sub-window is known
			}
			for range rapid.IntRange(0, 600).Draw(t, "n") {
				d := draw()
				tr.Record(d)
				model = append(model, modelSample{d, epoch})
			}
			if lazy {
				checkOutside(t, tr, model, epoch)
			} else {
				checkModel(t, tr, model, epoch)
			}
		}
	})
}

// clockStep moves the clock on by a part of a sub-window, by many windows,
// or back.
func clockStep(t *rapid.T, sub time.Duration) time.Duration {
	switch rapid.IntRange(0, 5).Draw(t, "step kind") {
	case 0:
		return -time.Duration(rapid.Int64Range(0, int64(3*sub)).Draw(t, "back"))
	case 1:
		return time.Duration(rapid.Int64Range(0, 10).Draw(t, "windows")) * 3 * sub
	case 2:
		return sub // exactly a sub-window: samples at its edge
	}
	return time.Duration(rapid.Int64Range(0, int64(sub)).Draw(t, "forward"))
}

func checkModel(t *rapid.T, tr *latency.Tracker, model []modelSample, now int64) {
	var in []time.Duration
	var negative int64
	for _, s := range model {
		if s.epoch < now-2 {
			continue
		}
		if s.d < 0 {
			negative++
			continue
		}
		in = append(in, min(s.d, latency.MaxLatency))
	}
	slices.Sort(in)
	snap := tr.Snapshot()
	if snap.Count != int64(len(in)) || snap.Negative != negative {
		t.Fatalf("window holds %d samples and %d negative, the model %d and %d", snap.Count, snap.Negative, len(in), negative)
	}
	for _, s := range grammarQuantiles {
		p, err := latency.ParseSpeculativeRetry(s)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := p.Compute(snap, -1)
		if len(in) == 0 {
			if got != -1 {
				t.Fatalf("%s of an empty window: %v, not the previous threshold", s, got)
			}
			continue
		}
		want := exactPercentile(in, p)
		if !withinPrecision(want, got) {
			t.Fatalf("%s of %d samples: %v, exact %v", s, len(in), got, want)
		}
		if q := tr.Quantile(p.Percentile() / 100); q != got {
			t.Fatalf("%s: Quantile %v, Compute %v", s, q, got)
		}
		th := latency.NewThreshold(p, tr, time.Hour, latency.WithRefresh(0))
		if d, _ := th.Load(time.Now()); d != got {
			t.Fatalf("%s: Threshold %v, Compute %v", s, d, got)
		}
	}
}

// withinPrecision reports whether got reports want to the precision the
// tracker promises: 1/128 of the value from 512 ns up, 4 ns below.
func withinPrecision(want, got time.Duration) bool {
	diff := math.Abs(float64(got - want))
	return diff <= max(float64(want)/128, 4)
}

// fullRange draws latencies from every shape, over the whole range a
// tracker accepts and beyond it on both sides.
func fullRange(t *rapid.T, r *rand.Rand) func() time.Duration {
	shape := rapid.IntRange(0, 5).Draw(t, "shape")
	lo := rapid.Float64Range(0, 36).Draw(t, "log2 lo")
	hi := rapid.Float64Range(lo, 37).Draw(t, "log2 hi")
	sigma := rapid.Float64Range(0.01, 3).Draw(t, "sigma")
	return func() time.Duration {
		var x float64
		switch shape {
		case 0: // uniform
			x = math.Exp2(lo) + r.Float64()*(math.Exp2(hi)-math.Exp2(lo))
		case 1: // log-uniform
			x = math.Exp2(lo + r.Float64()*(hi-lo))
		case 2: // log-normal
			x = math.Exp2(lo) * math.Exp(sigma*r.NormFloat64())
		case 3: // bimodal
			x = math.Exp2(lo) * (1 + 0.1*r.NormFloat64())
			if r.IntN(10) == 0 {
				x = math.Exp2(hi) * (1 + 0.1*r.NormFloat64())
			}
		case 4: // Pareto, heavy-tailed
			x = math.Exp2(lo) / math.Pow(1-r.Float64(), 1/sigma)
		default: // edges: zero, negative, bucket bounds, the largest
			return []time.Duration{0, -1, -time.Second, 1, 7, 8, 511, 512, 1023, 1024,
				latency.MaxLatency - 1, latency.MaxLatency, math.MaxInt64}[r.IntN(13)]
		}
		if x >= math.MaxInt64 {
			return math.MaxInt64
		}
		return time.Duration(x)
	}
}

// exactPercentile is the nearest-rank quantile of sorted samples at the
// policy's percentile, as the decimal the grammar wrote, in exact arithmetic.
func exactPercentile(sorted []time.Duration, p latency.SpeculativeRetry) time.Duration {
	x, _ := new(big.Rat).SetString(strings.TrimSuffix(p.String(), "p"))
	x.Mul(x, big.NewRat(int64(len(sorted)), 100))
	r, rem := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if rem.Sign() > 0 {
		r.Add(r, big.NewInt(1))
	}
	return sorted[max(int(r.Int64()), 1)-1]
}

// checkOutside checks that no sample counts past its window: a sample whose
// sub-window is more than two behind the current one never counts.
func checkOutside(t *rapid.T, tr *latency.Tracker, model []modelSample, now int64) {
	var in, negative int64
	for _, s := range model {
		switch {
		case s.epoch < now-2:
		case s.d < 0:
			negative++
		default:
			in++
		}
	}
	if snap := tr.Snapshot(); snap.Count > in || snap.Negative > negative {
		t.Fatalf("window holds %d samples and %d negative, of %d and %d recorded within it", snap.Count, snap.Negative, in, negative)
	}
}
