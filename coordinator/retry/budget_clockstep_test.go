package retry_test

import (
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator/retry"
)

// A step of the wall clock (NTP, a resumed VM) moves no window of a Budget
// fed time.Now's times: they are placed by their monotonic reading. Placed
// by their wall clock, a step back of an hour left every slot holding the
// later time's counts, and every extra attempt, the floor's too, was
// refused for the hour, the coordinator's hedges with the retries.
func TestBudgetIgnoresAStepOfTheWallClock(t *testing.T) {
	b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
	require.NoError(t, err)
	start := time.Now()
	for i := range 10 { // the floor: ten a window
		require.True(t, b.TryWithdraw(start.Add(time.Duration(i)*time.Second)), "attempt %d", i)
	}
	require.False(t, b.TryWithdraw(start.Add(9*time.Second)), "the floor is spent")

	for _, step := range []time.Duration{-time.Hour, time.Hour} {
		later := wallStepped(t, start.Add(20*time.Second), step)
		assert.True(t, b.TryWithdraw(later), "wall clock stepped %v: the window moved on by the monotonic clock", step)
	}
}

// Times with and without a monotonic reading fall in the same slots while
// the wall clock does not step: a caller that strips them (Round(0)) shares
// a Budget with one that does not.
func TestBudgetPlacesTimesAlikeWithOrWithoutMonotonicReadings(t *testing.T) {
	b, err := retry.NewBudget(retry.BudgetConfig{Window: time.Second, Percent: 0.5})
	require.NoError(t, err)
	now := time.Now()
	for range 10 {
		b.Deposit(now)
	}
	granted := 0
	for range 10 {
		if b.TryWithdraw(now.Round(0)) {
			granted++
		}
	}
	assert.Equal(t, 5, granted)
}

// wallStepped returns tm, which must carry a monotonic reading, with its
// wall clock moved by d (whole seconds) and its monotonic reading kept:
// what time.Now returns once the system clock was stepped. The time package
// cannot build one, so this moves the seconds the wall field holds in bits
// 30 to 62 when a monotonic reading is present (the layout since Go 1.9),
// and skips the test if the result does not read as such a time.
func wallStepped(t *testing.T, tm time.Time, d time.Duration) time.Time {
	t.Helper()
	stepped := tm
	fields := (*struct {
		wall uint64
		ext  int64
	})(unsafe.Pointer(&stepped))
	fields.wall += uint64(int64(d/time.Second)) << 30
	if stepped.Round(0).UnixNano() != tm.Round(0).UnixNano()+int64(d) || stepped.Sub(tm) != 0 {
		t.Skipf("cannot build a time whose wall clock stepped: time.Time's layout changed")
	}
	return stepped
}
