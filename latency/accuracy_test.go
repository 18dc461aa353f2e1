package latency_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/latency"
)

// The tracker's quantiles are checked against the exact nearest-rank
// quantiles of the same samples, over the shapes read latency takes.
func TestQuantileAccuracy(t *testing.T) {
	shapes := map[string]func(t *rapid.T, r *rand.Rand) func() float64{
		"log-normal": logNormal,
		"uniform":    uniform,
		"gc-pauses":  gcPauses,
	}
	trackers := map[string]func([]time.Duration) *latency.Tracker{
		"current third": recordAll,  // the stripes alone
		"whole window":  spreadOver, // packed thirds too
	}
	for name, shape := range shapes {
		for where, record := range trackers {
			t.Run(name+"/"+where, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
					draw := shape(t, r)
					n := rapid.IntRange(1, 3000).Draw(t, "n")
					checkQuantiles(t, record, samples(n, draw))
				})
			})
		}
	}
}

// recordAll returns a tracker whose clock never moves that recorded s.
func recordAll(s []time.Duration) *latency.Tracker {
	tr := frozen()
	for _, d := range s {
		tr.Record(d)
	}
	return tr
}

// samples draws n latencies in seconds, kept inside 1 µs … 60 s, the range
// the precision target covers.
func samples(n int, draw func() float64) []time.Duration {
	s := make([]time.Duration, n)
	for i := range s {
		sec := min(max(draw(), 1e-6), 60)
		s[i] = time.Duration(sec * float64(time.Second))
	}
	return s
}

func checkQuantiles(t *rapid.T, record func([]time.Duration) *latency.Tracker, s []time.Duration) {
	tr := record(s)
	slices.Sort(s)
	snap := tr.Snapshot()
	qs := []float64{0, 0.5, 0.9, 0.99, 0.999, 1, rapid.Float64Range(0, 1).Draw(t, "q")}
	for _, q := range qs {
		want := exactQuantile(s, q)
		got := tr.Quantile(q)
		// Half a bucket, 1/64 of its lower bound wide: the README's 0.8 %.
		if err := relErr(want, got); err > 1.0/128 {
			t.Fatalf("q=%v of %d samples: got %v, exact %v: %.3f %% off", q, len(s), got, want, 100*err)
		}
		if sq := snap.Quantile(q); sq != got {
			t.Fatalf("q=%v: snapshot says %v, tracker %v", q, sq, got)
		}
	}
	if snap.Count != int64(len(s)) {
		t.Fatalf("snapshot counts %d of %d samples", snap.Count, len(s))
	}
	var sq [2]time.Duration
	if sum := tr.Summarize(qs[3:5], sq[:]); sum.Count != snap.Count || sum.Mean != snap.Mean || sq[1] != tr.Quantile(qs[4]) {
		t.Fatalf("Summarize %+v %v disagrees with the snapshot", sum, sq)
	}
}

// exactQuantile is the nearest-rank quantile of sorted samples, as
// Tracker.Quantile defines it, of q as the shortest decimal that prints it
// (0.55, not 0.55000000000000004), in exact arithmetic.
func exactQuantile(sorted []time.Duration, q float64) time.Duration {
	x, _ := new(big.Rat).SetString(strconv.FormatFloat(q, 'g', -1, 64))
	x.Mul(x, new(big.Rat).SetInt64(int64(len(sorted))))
	r, rem := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	if rem.Sign() > 0 {
		r.Add(r, big.NewInt(1))
	}
	return sorted[max(int(r.Int64()), 1)-1]
}

func logNormal(t *rapid.T, r *rand.Rand) func() float64 {
	median := math.Exp(rapid.Float64Range(math.Log(10e-6), math.Log(1)).Draw(t, "median"))
	sigma := rapid.Float64Range(0.05, 2).Draw(t, "sigma")
	return func() float64 { return median * math.Exp(sigma*r.NormFloat64()) }
}

func uniform(t *rapid.T, r *rand.Rand) func() float64 {
	lo := math.Exp(rapid.Float64Range(math.Log(1e-6), math.Log(60)).Draw(t, "lo"))
	hi := lo + rapid.Float64Range(0, 60-lo).Draw(t, "width")
	return func() float64 { return lo + (hi-lo)*r.Float64() }
}

// gcPauses is a fast table whose replicas now and then stall for a
// stop-the-world pause: a log-normal body and a uniform far tail.
func gcPauses(t *rapid.T, r *rand.Rand) func() float64 {
	body := logNormal(t, r)
	share := rapid.Float64Range(0.001, 0.2).Draw(t, "pause share")
	pause := rapid.Float64Range(0.01, 1).Draw(t, "pause")
	return func() float64 {
		if r.Float64() < share {
			return pause * (1 + r.Float64())
		}
		return body()
	}
}

// A rank within q·n·2⁻⁵⁰ of an integer is that integer, as Quantile's doc
// says: float64 misses decimal products (0.55·100 is 55.000000000000007),
// so q a unit in the last place above 0.5 of 100 samples is the 50th
// sample, as 0.5 is, not the 51st.
func TestQuantileSnapsARankNearAnInteger(t *testing.T) {
	tr := latency.NewTracker()
	for i := 1; i <= 100; i++ {
		tr.Record(time.Duration(i) * time.Millisecond)
	}
	half := tr.Quantile(0.5)
	if got := tr.Quantile(math.Nextafter(0.5, 1)); got != half {
		t.Errorf("Quantile(0.5 + 1 ulp) = %v, want the 50th sample's %v", got, half)
	}
	if got := tr.Quantile(0.51); got == half {
		t.Errorf("Quantile(0.51) = %v, the 50th sample's", got)
	}
}
