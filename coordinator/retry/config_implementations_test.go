package retry_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/latency"
)

// nilPolicy is a Policy on a pointer, as an embedder's may be.
type nilPolicy struct{ retry.DefaultPolicy }

// A Policy, Speculation or jitter source that is a nil pointer in its
// interface (so not nil), and a Budget NewBudget did not make, are refused
// by NewExecutor with a *ConfigError naming the field: accepted, each
// crashed the first statement that used it (a nil dereference, or a
// division by the zero Budget's slot width).
func TestNewExecutorRefusesUnusableImplementations(t *testing.T) {
	var th *latency.Threshold
	var src *rand.PCG
	var p *nilPolicy
	for field, cfg := range map[string]retry.Config{
		"Config.Speculation":             {Speculation: th, SpeculativeExecutions: 1},
		"Config.ExponentialBackoff.Rand": {ExponentialBackoff: retry.ExponentialBackoff{Base: time.Millisecond, Rand: src}},
		"Config.Policy":                  {Policy: p},
		"Config.Budget":                  {Budget: &retry.Budget{}},
	} {
		_, err := retry.NewExecutor(cfg)
		var ce *retry.ConfigError
		if assert.ErrorAs(t, err, &ce, field) {
			assert.ErrorIs(t, err, retry.ErrInvalidConfig)
			assert.Contains(t, err.Error(), field)
		}
	}
}

// Validate tells a Budget made by NewBudget from a nil or zero one.
func TestBudgetValidate(t *testing.T) {
	b, err := retry.NewBudget(retry.BudgetConfig{Percent: 0.1})
	assert.NoError(t, err)
	assert.NoError(t, b.Validate())
	var none *retry.Budget
	assert.ErrorIs(t, none.Validate(), retry.ErrInvalidConfig)
	assert.ErrorIs(t, (&retry.Budget{}).Validate(), retry.ErrInvalidConfig)
}

// A LadderPolicy made without NewLadderPolicy, of no levels or of rungs
// out of order, is refused where it would be used, with its own error: the
// executor's by NewExecutor, a statement's by Execute (Statement.Validate).
// Accepted, it rethrew every failure (found by a driver author's
// exercise).
func TestAnInvalidLadderIsRefusedWhereItWouldBeUsed(t *testing.T) {
	for _, p := range []retry.LadderPolicy{{}, {Levels: []consistency.Level{consistency.One, consistency.Quorum}}} {
		_, err := retry.NewExecutor(retry.Config{Policy: p})
		var ce *retry.ConfigError
		if assert.ErrorAs(t, err, &ce, "%v", p.Levels) {
			assert.Equal(t, "Config.Policy", ce.Field)
			assert.ErrorIs(t, err, retry.ErrInvalidConfig)
			var le *retry.LadderError
			assert.True(t, errors.Is(err, retry.ErrInvalidLadder) || errors.As(err, &le), "the ladder's own error: %v", err)
		}
		err = retry.Statement{Level: consistency.Quorum, Policy: p}.Validate()
		assert.ErrorIs(t, err, retry.ErrInvalidStatement, "%v", p.Levels)
	}
	valid, err := retry.NewLadderPolicy(consistency.Quorum, consistency.One)
	assert.NoError(t, err)
	_, err = retry.NewExecutor(retry.Config{Policy: valid})
	assert.NoError(t, err)
	assert.NoError(t, retry.Statement{Level: consistency.Quorum, Policy: valid}.Validate())
}
