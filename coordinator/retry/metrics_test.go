package retry_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/coordinator/retry"
)

func TestMetricsString(t *testing.T) {
	var m retry.Metrics
	assert.Equal(t, "executions=0 retries=0 () retry_successes=0 ignores=0 exhausted=0 speculative=0 budget_refusals=0 downgrades=0", m.String())
	m = retry.Metrics{Executions: 9, RetrySuccesses: 2, Ignores: 1, Exhausted: 3, SpeculativeAttempts: 4,
		BudgetRefusals: 5, Downgrades: 6}
	m.Retries[retry.CauseReadTimeout] = 2
	m.Retries[retry.CauseErrorResponse] = 1
	assert.Equal(t, uint64(3), m.TotalRetries())
	assert.Equal(t, "executions=9 retries=3 (READ_TIMEOUT=2 ERROR_RESPONSE=1) retry_successes=2 ignores=1 "+
		"exhausted=3 speculative=4 budget_refusals=5 downgrades=6", m.String())
}
