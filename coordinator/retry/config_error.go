package retry

import (
	"errors"
	"fmt"
)

// ErrInvalidConfig is wrapped by every error NewBudget and NewExecutor
// return for a bad configuration.
var ErrInvalidConfig = errors.New("retry: invalid config")

// ConfigError names the configuration field that is invalid, and why. It is
// not modified once returned: safe for concurrent reads.
type ConfigError struct {
	Field  string // such as "BudgetConfig.Percent"
	Value  any
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%v: %s = %v: %s", ErrInvalidConfig, e.Field, e.Value, e.Reason)
}

// Unwrap returns ErrInvalidConfig.
func (e *ConfigError) Unwrap() error { return ErrInvalidConfig }
