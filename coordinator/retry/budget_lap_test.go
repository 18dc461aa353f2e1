package retry_test

import (
	"testing"
	"time"

	"github.com/readpath/readpath/coordinator/retry"
)

// A budget idle for more than 2^31 windows (248.5 days at the smallest
// window, 10 ms) grants its floor when traffic resumes. Its slots, whose
// laps were compared as signed 32-bit numbers, looked ahead of the current
// lap, and refused every event, deposits and withdrawals alike, for 2^31
// windows more, while Available reported the floor free (found by a review
// of the latency package and the budget).
func TestBudgetIdleForMoreThanHalfTheLapRangeGrantsTheFloor(t *testing.T) {
	cfg := retry.BudgetConfig{Percent: 0.5, Window: 10 * time.Millisecond, MinPerSecond: 100} // floor: 1 a window
	b, err := retry.NewBudget(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	slot := cfg.Window / 10
	for i := range 10 { // traffic touches every slot once
		at := start.Add(time.Duration(i) * slot)
		b.Deposit(at)
		b.TryWithdraw(at) // granted or refused, it marks the slot with this lap
	}
	// The budget then sits idle for 2^31+5 windows (about 248.5 days).
	later := start.Add(time.Duration(1<<31+5) * cfg.Window)
	if got := b.Available(later); got != 1 {
		t.Fatalf("Available after the idle spell = %v, want the floor, 1", got)
	}
	// Traffic resumes: 100 reads, then a hedge.
	now := later
	for range 100 {
		b.Deposit(now)
	}
	if avail := b.Available(now); !b.TryWithdraw(now) {
		t.Fatalf("after %v of idling and 100 fresh reads, TryWithdraw refused (Available says %v)",
			later.Sub(start), avail)
	}
}
