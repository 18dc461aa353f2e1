package retry

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A slot counts up to 2^31-1 events; one more carries into its lap and
// the slot starts again from one. A floor a slot could not count was
// accepted (up to 1e12 attempts a window): its withdrawals, all in one
// slot, wrapped the count, and the budget granted past the floor (found by
// review). The largest floor accepted now leaves a slot room to spare,
// for the withdrawals counted while they are judged.
func TestBudgetFloorFitsASlot(t *testing.T) {
	const window = time.Hour
	perSecond := func(attempts float64) float64 { return attempts / window.Seconds() }
	_, err := NewBudget(BudgetConfig{Window: window, MinPerSecond: perSecond(1 << 31)})
	var ce *ConfigError
	require.ErrorAs(t, err, &ce, "a floor of 2^31 attempts a window")
	assert.Equal(t, "BudgetConfig.MinPerSecond", ce.Field)
	_, err = NewBudget(BudgetConfig{Window: window, MinPerSecond: perSecond(maxBudgetFloor + 1)})
	require.ErrorIs(t, err, ErrInvalidConfig)

	b, err := NewBudget(BudgetConfig{Window: window, MinPerSecond: perSecond(maxBudgetFloor)})
	require.NoError(t, err)
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	s, lap := b.withdrawals.locate(b.epoch(t0))
	require.True(t, b.TryWithdraw(t0)) // takes the slot for its lap
	s.Store(pack(lap, maxBudgetFloor)) // the whole floor spent in the slot

	assert.False(t, b.TryWithdraw(t0), "past the floor")
	assert.Equal(t, pack(lap, maxBudgetFloor), s.Load(), "the slot's count and lap")
	assert.Zero(t, b.Available(t0))
}
