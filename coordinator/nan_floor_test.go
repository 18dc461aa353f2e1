package coordinator_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/coordinator"
)

// A NaN floor is reported as what it is. HedgeBudget takes a negative
// MinPerSecond for "no floor", so "must be >= 0", retry's rule for its
// own BudgetConfig, sends the caller to fix a sign that is not wrong.
func TestNaNHedgeFloorErrorSaysWhatIsWrong(t *testing.T) {
	_, err := coordinator.New(coordinator.Config{Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{MinPerSecond: math.NaN()}})
	assert.ErrorIs(t, err, coordinator.ErrInvalidConfig)
	assert.ErrorContains(t, err, "HedgeBudget.MinPerSecond")
	assert.NotContains(t, err.Error(), ">= 0", "a negative floor is valid here: it means none")
}
