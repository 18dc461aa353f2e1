package retry_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	c "github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator/retry"
)

// At EACH_QUORUM an unavailable error counts the replicas alive in the one
// datacenter that fell short, as Cassandra reports it: DowngradingPolicy
// retries, as the Java driver does, at THREE, TWO or ONE by that count,
// which the live replicas can meet, and at ONE when it is 0.
func TestDowngradingPolicyEachQuorumByTheShortDatacenter(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 3, "dc2": 7})
	tests := []struct {
		live  map[string]int
		short string
		want  c.Level
	}{
		{map[string]int{"dc1": 3, "dc2": 3}, "dc2", c.Three},
		{map[string]int{"dc1": 3, "dc2": 2}, "dc2", c.Two},
		{map[string]int{"dc1": 1, "dc2": 7}, "dc1", c.One},
		{map[string]int{"dc1": 0, "dc2": 7}, "dc1", c.One},
	}
	for _, tt := range tests {
		err := c.AssureSufficientLive(c.EachQuorum, r, "dc1", tt.live)
		var un *c.UnavailableError
		require.True(t, errors.As(err, &un), "%v: %v", tt.live, err)
		assert.Equal(t, tt.short, un.Datacenter)
		assert.Equal(t, tt.live[tt.short], un.Alive, "the short datacenter's count")
		v := retry.DowngradingPolicy{}.OnUnavailable(stmt(c.EachQuorum, retry.Idempotent), un, 0)
		assert.Equal(t, same(tt.want), v, "%v", tt.live)
		assert.NoError(t, c.AssureSufficientLive(v.Level, r, "dc1", tt.live), "%v: %s can be met", tt.live, v.Level)
	}
}
