package replicatest_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func samples(l replicatest.Latency, seed uint64, n int) []time.Duration {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = l.Sample(rng)
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(len(ds))
}

func TestConstantAlwaysTakesItsDuration(t *testing.T) {
	for _, d := range samples(replicatest.Constant(ms(3)), 1, 100) {
		require.Equal(t, ms(3), d)
	}
}

func TestUniformStaysInItsRangeAndCentres(t *testing.T) {
	s := samples(replicatest.Uniform(ms(1), ms(5)), 1, 20000)
	for _, d := range s {
		require.True(t, d >= ms(1) && d <= ms(5), "%v out of [1ms, 5ms]", d)
	}
	assert.InDelta(t, float64(ms(3)), float64(mean(s)), float64(ms(0.05)))
	assert.Equal(t, []time.Duration{ms(2), ms(2)}, samples(replicatest.Uniform(ms(2), ms(2)), 1, 2))
}

func TestLogNormalHasItsMedianAndALongTail(t *testing.T) {
	s := samples(replicatest.LogNormal(ms(2), 1), 7, 20001)
	assert.InEpsilon(t, float64(ms(2)), float64(median(s)), 0.03)
	slices.Sort(s)
	p99 := s[len(s)*99/100]
	// exp(2.326 * sigma) times the median for sigma 1.
	assert.InEpsilon(t, float64(ms(2))*math.Exp(2.326), float64(p99), 0.1)
	assert.Equal(t, []time.Duration{ms(2), ms(2)}, samples(replicatest.LogNormal(ms(2), 0), 1, 2))
}

func TestEmpiricalResamplesItsSamples(t *testing.T) {
	given := []time.Duration{ms(1), ms(2), ms(40)}
	l := replicatest.Empirical(given...)
	given[0] = time.Hour // the model keeps its own copy
	seen := map[time.Duration]int{}
	for _, d := range samples(l, 3, 3000) {
		seen[d]++
	}
	require.Len(t, seen, 3)
	for _, d := range []time.Duration{ms(1), ms(2), ms(40)} {
		assert.InDelta(t, 1000, seen[d], 100, "%v drawn %d times", d, seen[d])
	}
}

func TestLatencyModelsAreSeeded(t *testing.T) {
	models := []replicatest.Latency{
		replicatest.Uniform(0, ms(10)), replicatest.LogNormal(ms(2), 0.8), replicatest.Empirical(ms(1), ms(2), ms(3)),
	}
	for _, l := range models {
		assert.Equal(t, samples(l, 42, 50), samples(l, 42, 50), "%v", l)
		assert.NotEqual(t, samples(l, 42, 50), samples(l, 43, 50), "%v", l)
	}
}

func TestLatencyModelStrings(t *testing.T) {
	for want, l := range map[string]replicatest.Latency{
		"Constant(3ms)":        replicatest.Constant(ms(3)),
		"Uniform(1ms, 5ms)":    replicatest.Uniform(ms(1), ms(5)),
		"LogNormal(2ms, 0.5)":  replicatest.LogNormal(ms(2), 0.5),
		"Empirical(2 samples)": replicatest.Empirical(ms(1), ms(2)),
	} {
		assert.Equal(t, want, l.(interface{ String() string }).String())
	}
}

func TestInvalidLatencyModelsAreRejected(t *testing.T) {
	for name, l := range map[string]replicatest.Latency{
		"negative constant": replicatest.Constant(-1),
		"negative uniform":  replicatest.Uniform(-ms(1), ms(1)),
		"inverted uniform":  replicatest.Uniform(ms(2), ms(1)),
		"negative median":   replicatest.LogNormal(-ms(1), 1),
		"negative sigma":    replicatest.LogNormal(ms(1), -1),
		"NaN sigma":         replicatest.LogNormal(ms(1), math.NaN()),
		"infinite sigma":    replicatest.LogNormal(ms(1), math.Inf(1)),
		"no samples":        replicatest.Empirical(),
		"negative sample":   replicatest.Empirical(ms(1), -ms(1)),
	} {
		t.Run(name, func(t *testing.T) {
			for _, b := range []replicatest.Behavior{
				{Latency: l}, {PauseChance: 0.5, PauseLength: l},
			} {
				err := b.Validate()
				require.ErrorIs(t, err, replicatest.ErrInvalidConfig)
				var ce *replicatest.ConfigError
				require.True(t, errors.As(err, &ce))
				assert.NotEmpty(t, ce.Reason)
			}
		})
	}
}

// The laws every model keeps, whatever its parameters: draws are never
// negative and stay in the model's support.
func TestLatencyModelLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lo := time.Duration(rapid.Int64Range(0, math.MaxInt64/2).Draw(t, "lo"))
		hi := lo + time.Duration(rapid.Int64Range(0, math.MaxInt64/2).Draw(t, "span"))
		sigma := rapid.Float64Range(0, 50).Draw(t, "sigma")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		if d := replicatest.Uniform(lo, hi).Sample(rng); d < lo || d > hi {
			t.Fatalf("Uniform(%v, %v) drew %v", lo, hi, d)
		}
		if d := replicatest.LogNormal(hi, sigma).Sample(rng); d < 0 {
			t.Fatalf("LogNormal(%v, %v) drew %v", hi, sigma, d)
		}
		set := rapid.SliceOfN(rapid.Int64Range(0, math.MaxInt64), 1, 10).Draw(t, "samples")
		ds := make([]time.Duration, len(set))
		for i, v := range set {
			ds[i] = time.Duration(v)
		}
		if d := replicatest.Empirical(ds...).Sample(rng); !slices.Contains(ds, d) {
			t.Fatalf("Empirical(%v) drew %v", ds, d)
		}
	})
}
