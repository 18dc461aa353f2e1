package coordinator_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
)

// A refused HedgeBudget is named by its own fields, and its advice works
// when followed: retry's own message names BudgetConfig and says a floor
// of 0 is none, which in a HedgeBudget is the default floor refused again.
func TestHedgeBudgetRefusalNamesItsOwnFields(t *testing.T) {
	half := coordinator.HedgeBudget{Window: 500 * time.Millisecond} // the default floor, 1 a second
	_, err := coordinator.New(coordinator.Config{Locator: nowhere, HedgeBudget: half})
	require.ErrorIs(t, err, coordinator.ErrInvalidConfig)
	assert.Contains(t, err.Error(), "HedgeBudget.MinPerSecond = 1 ")
	assert.Contains(t, err.Error(), "set it negative for no floor")
	assert.NotContains(t, err.Error(), "BudgetConfig")

	half.MinPerSecond = -1 // as the error advises
	c, err := coordinator.New(coordinator.Config{Locator: nowhere, HedgeBudget: half})
	require.NoError(t, err)
	c.Close()
	half.MinPerSecond = 2 // or the other way it advises
	c, err = coordinator.New(coordinator.Config{Locator: nowhere, HedgeBudget: half})
	require.NoError(t, err)
	c.Close()

	_, err = coordinator.New(coordinator.Config{Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{Window: 2 * time.Hour}})
	require.ErrorIs(t, err, coordinator.ErrInvalidConfig)
	assert.Contains(t, err.Error(), "HedgeBudget.Window = 2h0m0s: must be at most 1h")

	huge := coordinator.HedgeBudget{Window: time.Second, MinPerSecond: 1 << 31}
	_, err = coordinator.New(coordinator.Config{Locator: nowhere, HedgeBudget: huge})
	require.ErrorIs(t, err, coordinator.ErrInvalidConfig)
	assert.Contains(t, err.Error(), "HedgeBudget.MinPerSecond = 2.147483648e+09 allows more than 2^30 speculative actions in a Window of 1s")
	assert.NotContains(t, err.Error(), "attempts", "retry's word")
}
