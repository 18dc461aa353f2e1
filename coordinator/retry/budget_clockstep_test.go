package retry_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/internal/monoclock/monoclocktest"
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

func wallStepped(t *testing.T, tm time.Time, d time.Duration) time.Time {
	t.Helper()
	stepped, ok := monoclocktest.StepWall(tm, d)
	if !ok {
		t.Skip("cannot build a time whose wall clock stepped: time.Time's layout changed")
	}
	return stepped
}
