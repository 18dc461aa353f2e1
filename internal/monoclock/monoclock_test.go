package monoclock_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/internal/monoclock"
	"github.com/readpath/readpath/internal/monoclock/monoclocktest"
)

// Times from time.Now keep their places when the wall clock steps; times
// without a monotonic reading are their UnixNano, and both agree while the
// clock does not step.
func TestNanosFollowTheMonotonicClock(t *testing.T) {
	o := monoclock.New()
	now := time.Now()
	assert.InDelta(t, now.UnixNano(), o.Nanos(now), float64(time.Millisecond), "agrees with the wall clock")
	assert.Equal(t, now.UnixNano(), o.Nanos(now.Round(0)))
	for _, step := range []time.Duration{-time.Hour, time.Hour} {
		stepped, ok := monoclocktest.StepWall(now, step)
		require.True(t, ok, "cannot build a stepped time")
		assert.Equal(t, o.Nanos(now), o.Nanos(stepped), "wall clock stepped %v", step)
		assert.Equal(t, now.UnixNano()+int64(step), o.Nanos(stepped.Round(0)))
	}
	old := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	assert.Equal(t, old.UnixNano(), o.Nanos(old), "any time without a reading")
}

// Times beyond an int64 of nanoseconds since 1970 saturate in order:
// UnixNano wraps there, placing 1600 in 2184. A time with a monotonic
// reading never gets that far: time.Time.Add drops the reading first.
func TestNanosSaturateBeyondTheirRange(t *testing.T) {
	o := monoclock.New()
	date := func(year int) time.Time { return time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC) }
	assert.Equal(t, int64(math.MinInt64), o.Nanos(date(1600)))
	assert.Equal(t, int64(math.MinInt64), o.Nanos(date(1000)))
	assert.Equal(t, int64(math.MaxInt64), o.Nanos(date(2300)))
	assert.Equal(t, int64(math.MaxInt64), o.Nanos(date(3000)))
	assert.Equal(t, date(1700).UnixNano(), o.Nanos(date(1700)), "within the range, as before")
	assert.Equal(t, int64(math.MinInt64), o.Nanos(time.Unix(0, math.MinInt64)), "the edges themselves")
	assert.Equal(t, int64(math.MaxInt64), o.Nanos(time.Unix(0, math.MaxInt64)))
	edge := []int64{math.MinInt64 + 1, math.MinInt64 + 1e9, math.MaxInt64 - 1, math.MaxInt64 - 1e9}
	for _, n := range edge {
		assert.Equal(t, n, o.Nanos(time.Unix(0, n)), "within a second of an edge")
	}
	assert.Equal(t, int64(math.MinInt64), o.Nanos(time.Unix(0, math.MinInt64).Add(-1)), "a nanosecond beyond")
	assert.Equal(t, int64(math.MaxInt64), o.Nanos(time.Unix(0, math.MaxInt64).Add(1)))
}
