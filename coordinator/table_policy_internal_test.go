package coordinator

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
)

// A read loads its thresholds for the policies of the options it started
// with (LoadFor); a policy other than the one in force is computed afresh,
// a quantile over the tracker each time. So outside a race with
// SetTableOptions the two must be the same value, for the default table,
// a configured one and one altered since, or every read would pay that.
func TestTableOptionsAndThresholdPoliciesAgree(t *testing.T) {
	fixed, err := latency.ParseSpeculativeRetry("50ms")
	require.NoError(t, err)
	none := LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) {
		return nil, consistency.Replication{}, nil
	})
	c, err := New(Config{Locator: none, Tables: map[string]TableOptions{"set": {SpeculativeRetry: fixed}}})
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetTableOptions("altered", TableOptions{AdditionalWritePolicy: fixed}))
	for _, name := range []string{"default", "set", "altered"} {
		tb := c.table(name)
		o := tb.opts.Load()
		assert.Equal(t, o.SpeculativeRetry, tb.threshold.Policy(), name)
		assert.Equal(t, o.AdditionalWritePolicy, tb.writeThreshold.Policy(), name)
	}
}
