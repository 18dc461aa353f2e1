package retry_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator/retry"
)

// TryWithdraw's doc, for times without a monotonic reading: a step back by
// more than a window "refuses every extra attempt ... until it is again
// within a window of the latest time it had reached". A time before 1970
// (or the zero time.Time, passed once by mistake) is a step back; but its
// epoch, taken as unsigned, was near 2^64, so ring.add made it the ring's
// newest: it was granted, and every later withdrawal at the present time,
// the floor's included, was refused as late for ever, and every deposit
// dropped (found by review). So did a time before 1678, which UnixNano
// wraps (1600 came out in 2184; found by a later review). A monotonic time
// read just before the budget was made is placed by its reading, like any
// other.
func TestBudgetTimeBefore1970DoesNotWedgeIt(t *testing.T) {
	for _, old := range []time.Time{
		time.Date(1969, 12, 31, 23, 59, 0, 0, time.UTC),
		{}, // the zero time
		time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
		require.NoError(t, err)                            // a floor of 10 a window
		t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC) // no monotonic reading
		require.True(t, b.TryWithdraw(t0))
		assert.False(t, b.TryWithdraw(old), "%v: a step back of decades is refused", old)
		later := t0.Add(time.Second)
		assert.Greater(t, b.Available(later), 0.0, "%v: Available after it", old)
		assert.True(t, b.TryWithdraw(later), "%v: the present, one second on, with 8 of the floor's 10 left", old)
		assert.True(t, b.TryWithdraw(t0.Add(time.Hour)), "%v: the present, an hour on", old)
	}

	before := time.Now() // a monotonic reading from before the budget
	b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
	require.NoError(t, err)
	require.True(t, b.TryWithdraw(before), "a time just before the budget is a time like any other")
	assert.True(t, b.TryWithdraw(time.Now()), "and the present is served after it")
}
