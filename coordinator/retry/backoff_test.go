package retry_test

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// Random bits that the jitter maps to exact fractions of the ceiling.
const (
	uZero         uint64 = 0
	uQuarter      uint64 = 1 << 62
	uHalf         uint64 = 1 << 63
	uThreeQuarter uint64 = 3 << 62
	uMax          uint64 = math.MaxUint64 // just under 1
)

// bits is a rand.Source that returns its values in turn, then repeats them.
type bits struct {
	vals []uint64
	i    int
}

func (b *bits) Uint64() uint64 {
	v := b.vals[b.i%len(b.vals)]
	b.i++
	return v
}

func jittered(base, cap time.Duration, vals ...uint64) retry.ExponentialBackoff {
	return retry.ExponentialBackoff{Base: base, Cap: cap, Rand: &bits{vals: vals}}
}

func TestExponentialBackoffCeiling(t *testing.T) {
	tests := []struct {
		name string
		b    retry.ExponentialBackoff
		want map[int]time.Duration // by retries made
	}{
		{"zero value", retry.ExponentialBackoff{}, map[int]time.Duration{0: 0, 5: 0}},
		{"doubles up to the cap", retry.ExponentialBackoff{Base: 10 * ms, Cap: 100 * ms}, map[int]time.Duration{
			0: 10 * ms, 1: 20 * ms, 2: 40 * ms, 3: 80 * ms, 4: 100 * ms, 50: 100 * ms, 5000: 100 * ms}},
		{"multiplier 1.5", retry.ExponentialBackoff{Base: 10 * ms, Multiplier: 1.5}, map[int]time.Duration{
			0: 10 * ms, 1: 15 * ms, 2: 22500 * time.Microsecond, 3: 33750 * time.Microsecond}},
		{"multiplier 1 is constant", retry.ExponentialBackoff{Base: ms, Multiplier: 1}, map[int]time.Duration{
			0: ms, 7: ms, 1000: ms}},
		{"uncapped saturates", retry.ExponentialBackoff{Base: time.Second}, map[int]time.Duration{
			-1: time.Second, 62: math.MaxInt64, 5000: math.MaxInt64}},
	}
	for _, tt := range tests {
		for n, want := range tt.want {
			assert.Equal(t, want, tt.b.Ceiling(n), "%s: Ceiling(%d)", tt.name, n)
		}
	}
}

// The ceilings never shrink, never pass the cap, and start at Base.
func TestExponentialBackoffCeilingLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := retry.ExponentialBackoff{
			Base:       time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, "base")),
			Multiplier: rapid.Float64Range(1, 10).Draw(t, "multiplier"),
		}
		if rapid.Bool().Draw(t, "capped") {
			b.Cap = b.Base + time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, "headroom"))
		}
		n := rapid.IntRange(0, 500).Draw(t, "retries")
		assert.Equal(t, b.Base, b.Ceiling(0))
		assert.LessOrEqual(t, b.Ceiling(n), b.Ceiling(n+1))
		if b.Cap > 0 {
			assert.LessOrEqual(t, b.Ceiling(n), b.Cap)
		}
	})
}

// Retry n+1 waits u × Ceiling(n), u drawn from [0, 1) by the source: the
// attempts run at exact times, and no wait reaches its ceiling.
func TestExponentialBackoffWaitsFullJitter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		eb := jittered(10*ms, 40*ms, uHalf, uZero, uMax)
		ex := newExecutor(t, retry.Config{ExponentialBackoff: eb})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{overloaded}}, {name: "b", errs: []error{overloaded}},
			{name: "c", errs: []error{overloaded}}, {name: "d"}}
		res, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.NoError(t, err)
		assert.Equal(t, "d", res.Value)
		var at []time.Duration
		for _, call := range cl.log() {
			at = append(at, call.at)
		}
		// Ceilings 10, 20 and 40ms; waits 5ms, 0 and 40ms less a nanosecond.
		assert.Equal(t, []time.Duration{0, 5 * ms, 5 * ms, 45*ms - 1}, at)
	})
}

// The same seed gives the same waits, each within its ceiling.
func TestSeededExponentialBackoffRepeats(t *testing.T) {
	schedule := func() (waits []time.Duration) {
		synctest.Test(t, func(t *testing.T) {
			eb := retry.ExponentialBackoff{Base: 10 * ms, Cap: 50 * ms, Rand: rand.NewPCG(1, 2)}
			ex := newExecutor(t, retry.Config{ExponentialBackoff: eb, MaxRetries: 6,
				OnRetry: func(ev retry.RetryEvent) {
					waits = append(waits, ev.Delay)
					assert.Less(t, ev.Delay, eb.Ceiling(ev.Retry-1))
				}})
			errs := make([]error, 6)
			for i := range errs {
				errs[i] = readTimeout(c.One, 1, 1, false)
			}
			plan := []target{{name: "a", errs: errs}}
			pol := &recorder{answer: func(s retry.Statement) retry.Verdict { return same(s.Level) }}
			_, err := retry.Execute(t.Context(), ex, retry.Statement{Level: c.One, Policy: pol}, plan, newCluster().attempt)
			require.NoError(t, err)
		})
		return waits
	}
	first := schedule()
	require.Len(t, first, 6)
	assert.Equal(t, first, schedule())
}

// A retry whose wait would end at or after the deadline is not made: the
// statement ends at once, without spending the budget.
func TestBackoffPastTheDeadlineIsNotAttempted(t *testing.T) {
	tests := []struct {
		name    string
		cfg     retry.Config
		retried bool
	}{
		{"ends before the deadline", retry.Config{ExponentialBackoff: jittered(40*ms, 0, uQuarter)}, true},
		{"ends at the deadline", retry.Config{ExponentialBackoff: jittered(40*ms, 0, uHalf)}, false},
		{"ends after the deadline", retry.Config{ExponentialBackoff: jittered(40*ms, 0, uThreeQuarter)}, false},
		{"a Backoff function too", retry.Config{Backoff: func(int) time.Duration { return 25 * ms }}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				budget := newBudget(t, retry.BudgetConfig{Percent: 1})
				tt.cfg.Budget = budget
				ex := newExecutor(t, tt.cfg)
				cl := newCluster()
				ctx, cancel := context.WithTimeout(t.Context(), 30*ms)
				defer cancel()
				plan := []target{{name: "a", delay: 10 * ms, errs: []error{overloaded}}, {name: "b"}}
				_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
				if tt.retried {
					require.NoError(t, err)
					assert.Equal(t, []call{{target: "a", level: c.One}, {target: "b", level: c.One, at: 20 * ms}}, cl.log())
					return
				}
				require.ErrorIs(t, err, retry.ErrBackoffPastDeadline)
				assert.ErrorIs(t, err, retry.ErrOverloaded)
				assert.NotErrorIs(t, err, context.DeadlineExceeded, "the context had not ended")
				assert.Equal(t, 10*ms, cl.elapsed(), "returns at once")
				assert.Equal(t, []string{"a"}, targets(cl.log()))
				assert.Equal(t, 1.0, budget.Available(time.Now()), "the budget is not spent")
				m := ex.Metrics()
				assert.Equal(t, uint64(1), m.Exhausted)
				assert.Zero(t, m.TotalRetries())
			})
		})
	}
}

// Without a deadline, waits only end early when the context does.
func TestExponentialBackoffHonoursCancellation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{ExponentialBackoff: jittered(time.Second, 0, uHalf)})
		cl := newCluster()
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(100*ms, cancel)
		plan := []target{{name: "a", errs: []error{overloaded}}, {name: "b"}}
		_, err := retry.Execute(ctx, ex, stmt(c.One, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 100*ms, cl.elapsed())
		assert.Equal(t, []string{"a"}, targets(cl.log()))
	})
}

// Executions running at once share the Executor's source: the race
// detector checks that its calls are serialized.
func TestExponentialBackoffSourceIsSerialized(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		eb := retry.ExponentialBackoff{Base: ms, Rand: rand.NewPCG(1, 2)}
		ex := newExecutor(t, retry.Config{ExponentialBackoff: eb})
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				plan := []target{{name: "a", errs: []error{overloaded}}, {name: "b"}}
				_, err := retry.Execute(t.Context(), ex, stmt(c.One, retry.Idempotent), plan, newCluster().attempt)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		assert.Equal(t, uint64(8), ex.Metrics().RetrySuccesses)
	})
}

func TestNewExecutorRejectsBadBackoff(t *testing.T) {
	const p = "Config.ExponentialBackoff."
	tests := []struct {
		field string
		cfg   retry.Config
	}{
		{p + "Base", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Base: -ms}}},
		{p + "Base", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Cap: time.Second}}},
		{p + "Base", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Multiplier: 2}}},
		{p + "Base", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Rand: rand.NewPCG(1, 2)}}},
		{p + "Base", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Base: ms},
			Backoff: func(int) time.Duration { return 0 }}},
		{p + "Cap", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Base: ms, Cap: -1}}},
		{p + "Cap", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Base: ms, Cap: ms - 1}}},
		{p + "Multiplier", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Base: ms, Multiplier: 0.5}}},
		{p + "Multiplier", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Base: ms, Multiplier: -2}}},
		{p + "Multiplier", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Base: ms, Multiplier: math.NaN()}}},
		{p + "Multiplier", retry.Config{ExponentialBackoff: retry.ExponentialBackoff{Base: ms, Multiplier: math.Inf(1)}}},
	}
	for _, tt := range tests {
		ex, err := retry.NewExecutor(tt.cfg)
		assert.Nil(t, ex)
		require.ErrorIs(t, err, retry.ErrInvalidConfig)
		var ce *retry.ConfigError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, tt.field, ce.Field, "%+v", tt.cfg.ExponentialBackoff)
	}
	for _, ok := range []retry.ExponentialBackoff{{}, {Base: ms}, {Base: ms, Cap: ms, Multiplier: 1},
		{Base: ms, Multiplier: 3, Rand: rand.NewPCG(1, 2)}} {
		_, err := retry.NewExecutor(retry.Config{ExponentialBackoff: ok})
		assert.NoError(t, err, "%+v", ok)
	}
}

// The zero Base waits not at all, however many retries: Base ×
// Multiplier^retries was 0 × Inf from 1,024 retries on, NaN, which became
// the most negative time.Duration. A Base of a nanosecond saturates.
func TestCeilingOfAZeroBaseIsZero(t *testing.T) {
	for _, b := range []retry.ExponentialBackoff{{}, {Multiplier: 2}, {Multiplier: 1.5}} {
		for _, n := range []int{0, 1, 1023, 1024, 1 << 20} {
			assert.Zero(t, b.Ceiling(n), "%+v.Ceiling(%d)", b, n)
		}
	}
	assert.Equal(t, time.Duration(math.MaxInt64), retry.ExponentialBackoff{Base: time.Nanosecond}.Ceiling(5000))
}

// A ceiling of exactly 2^63 ns, one past the largest time.Duration,
// saturates too: converted, it wrapped to the most negative one.
func TestCeilingOfExactly2To63Saturates(t *testing.T) {
	assert.Equal(t, time.Duration(math.MaxInt64), retry.ExponentialBackoff{Base: 1 << 62}.Ceiling(1))
}

// Ceiling is exact where Base × Multiplier^retries is: past 2^53 ns,
// float64(Base) and float64(Cap) round up, and Ceiling returned up to
// 477 ns more than Cap, and more than Base at a multiplier of 1.
func TestCeilingNeverPassesCapOrBaseByRounding(t *testing.T) {
	for _, d := range []time.Duration{1<<53 + 3, math.MaxInt64 - 1500} {
		for _, n := range []int{0, 1, 5} {
			capped := retry.ExponentialBackoff{Base: d, Cap: d}
			assert.Equal(t, d, capped.Ceiling(n), "Base = Cap = %d: Ceiling(%d)", int64(d), n)
			flat := retry.ExponentialBackoff{Base: d, Multiplier: 1}
			assert.Equal(t, d, flat.Ceiling(n), "Base %d, Multiplier 1: Ceiling(%d)", int64(d), n)
		}
	}
}
