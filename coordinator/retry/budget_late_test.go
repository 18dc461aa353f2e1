package retry_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator/retry"
)

// Budget.Available's doc: "how many extra attempts TryWithdraw would allow
// at now". For a now more than a window behind the newest time the budget
// has seen (a caller that read the clock, then waited longer than the
// window, as a 10 ms window makes easy), Available counted the window
// ending at now, where no slot holds now's lap any more, and reported the
// whole allowance, while TryWithdraw at the same now refuses (found by
// review).
func TestBudgetAvailableAgreesWithTryWithdrawForALateNow(t *testing.T) {
	b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
	require.NoError(t, err)
	t0 := time.Now()
	// The newest event: one window later, in the slot t0 falls in.
	require.True(t, b.TryWithdraw(t0.Add(10*time.Second)))

	avail := b.Available(t0)
	granted := 0
	for range 20 {
		if b.TryWithdraw(t0) {
			granted++
		}
	}
	assert.Equal(t, int(avail), granted,
		"Available(t0) = %v, but TryWithdraw(t0) allowed %d", avail, granted)
}

// Budget.TryWithdraw's doc, for times without a monotonic reading: "one
// back by more than a window refuses every extra attempt, the floor's too,
// until it is again within a window of the latest time it had reached,
// since the slots still hold that time's counts". That holds only for a
// step back of up to 256 windows (maxLate laps in ring.go): further back,
// the slot was taken for stale and recycled, its newer counts dropped, and
// the attempt granted (found by review). With the default 10 s window, a
// step back of an hour (NTP, a resumed VM: the case the doc describes) is
// 360 windows.
func TestBudgetStepBackOfAnHourIsRefused(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC) // no monotonic reading
	for _, back := range []time.Duration{30 * time.Second, 42 * time.Minute, 43 * time.Minute, time.Hour} {
		b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
		require.NoError(t, err)
		for i := range 10 {
			require.True(t, b.TryWithdraw(t0), "floor attempt %d", i)
		}
		require.False(t, b.TryWithdraw(t0), "the floor is spent")
		assert.False(t, b.TryWithdraw(t0.Add(-back)),
			"stepped back %v: the doc says refused until within a window of the latest time", back)
	}
}

// The Budget's doc: "Events more than a window older than the newest seen
// are not counted", and TryWithdraw's: withdrawals over the window ending
// at now "may not exceed Percent × the requests deposited over that window
// plus the floor". A withdrawal whose time is more than 256 windows older
// than its slot's (2.56 s with a 10 ms window, a caller that read
// time.Now before a wait) was neither refused nor ignored: ring.add took
// the slot for stale and recycled it, dropping the current window's count
// there, and the next current withdrawal recycled it back. Interleaved, a
// stale and a current caller were both granted without limit (found by
// review).
func TestBudgetStaleWithdrawalDoesNotResetTheCurrentWindow(t *testing.T) {
	b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Millisecond, MinPerSecond: 1000})
	require.NoError(t, err)           // a floor of 10 a window
	stale := time.Now()               // monotonic reading kept
	now := stale.Add(3 * time.Second) // 300 windows later
	for i := range 10 {
		require.True(t, b.TryWithdraw(now), "floor attempt %d", i)
	}
	require.False(t, b.TryWithdraw(now), "the floor is spent")

	granted := 0
	for range 100 {
		b.TryWithdraw(stale) // a caller whose clock reading is 3 s old
		if b.TryWithdraw(now) {
			granted++
		}
	}
	assert.Equal(t, 0, granted, "withdrawals granted at now after its window's floor was spent")
}

// The README: "A time a window or more before the newest a budget has
// counted (a caller's reading kept across a long wait, a zero time.Time,
// any date however old) is refused, and counts nothing". Judged against
// the newest withdrawal alone, a withdrawal an hour older than the newest
// deposit was granted, up to the floor, whenever no newer withdrawal had
// been made (found by review).
func TestBudgetWithdrawalOlderThanTheNewestDepositIsRefused(t *testing.T) {
	for _, stale := range []time.Duration{10 * time.Second, time.Hour} {
		b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
		require.NoError(t, err)
		now := time.Now()
		b.Deposit(now)
		then := now.Add(-stale)
		assert.Zero(t, b.Available(then), "%v before the newest deposit", stale)
		for i := range 20 {
			assert.False(t, b.TryWithdraw(then), "%v before the newest deposit, attempt %d", stale, i)
		}
		assert.Equal(t, 10.0, b.Available(now), "the stale attempts counted nothing")
		assert.True(t, b.TryWithdraw(now.Add(-9*time.Second)), "within a window of the newest deposit")
	}
	var zero time.Time
	b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 1})
	require.NoError(t, err)
	b.Deposit(time.Now())
	assert.False(t, b.TryWithdraw(zero), "a zero time.Time")
}

// The Budget's doc: "Events more than a window older than the newest seen
// are not counted". That holds too for a late deposit whose slot still
// holds its own window, no later event having recycled it: counted there,
// it raised the allowance of a withdrawal judged on a window that holds
// that slot, a few slots behind the newest deposit but not late.
func TestBudgetLateDepositIsNotCountedInItsUntouchedSlot(t *testing.T) {
	b, err := retry.NewBudget(retry.BudgetConfig{Percent: 1, Window: 10 * time.Second})
	require.NoError(t, err)
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC) // no monotonic reading
	b.Deposit(t0)
	b.Deposit(t0.Add(15 * time.Second)) // the newest: t0 is now more than a window old
	b.Deposit(t0)                       // late: counts nothing
	judged := t0.Add(7 * time.Second)   // its window holds t0's slot
	assert.InDelta(t, 1, b.Available(judged), 1e-9, "t0's first deposit only")
	assert.True(t, b.TryWithdraw(judged))
	assert.False(t, b.TryWithdraw(judged), "one deposit at Percent 1: one withdrawal")
}

// Budget.Refund returns an attempt to the window of the now it was granted
// at. Once a withdrawal a window later has recycled that now's slot, the
// refunded attempt has left the window with the slot (ring.remove: "unless
// the slot has moved on to another lap since"), and the later window keeps
// its own count: taken from it, the later window's spent floor was granted
// again.
func TestBudgetRefundAfterItsSlotMovedOnTakesNothingBack(t *testing.T) {
	b, err := retry.NewBudget(retry.BudgetConfig{Window: 10 * time.Second, MinPerSecond: 0.1})
	require.NoError(t, err) // a floor of one a window, no percent
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	require.True(t, b.TryWithdraw(t0))
	later := t0.Add(10 * time.Second) // t0's slot, the next lap
	require.True(t, b.TryWithdraw(later), "the next window's floor")
	b.Refund(t0) // the attempt granted at t0 was not made after all
	assert.Zero(t, b.Available(later))
	assert.False(t, b.TryWithdraw(later), "the floor of the window ending at later is spent")
}
