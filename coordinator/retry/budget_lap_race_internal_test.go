package retry

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A withdrawal at t0, the floor of its window spent, is counted by add;
// before it sums its window, a withdrawal a window later takes its slot for
// the next lap. Judged then, the first would see an empty window and be
// granted, which no order of the two calls grants: run first, its window
// holds two against a floor of one; run second, it is a window late. The
// interleaving is forced here step by step (found by a stress test).
func TestBudgetWithdrawalOvertakenByTheNextLapIsRefused(t *testing.T) {
	b, err := NewBudget(BudgetConfig{Window: 10 * time.Second, MinPerSecond: 0.1})
	require.NoError(t, err) // a floor of one a window, no percent
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	require.True(t, b.TryWithdraw(t0), "the floor's one")

	e := b.epoch(t0)
	require.True(t, b.withdrawals.add(e), "the racing withdrawal is counted")
	require.True(t, b.TryWithdraw(t0.Add(10*time.Second)), "the next window's floor, in the same slot")
	assert.False(t, b.allows(e), "the racing withdrawal is judged after its slot moved on")
}
