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
// datacenter that fell short: with that datacenter down its count is 0, yet
// the others are up. A ladder from EACH_QUORUM exists for that outage, so
// it takes its next rung, as DowngradingPolicy retries at ONE there
// (JAVA-1005), and the rung can be met.
func TestLadderPolicyEachQuorumWithADatacenterDown(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3})
	live := map[string]int{"dc1": 3, "dc2": 0}
	err := c.AssureSufficientLive(c.EachQuorum, r, "dc1", live)
	var un *c.UnavailableError
	require.True(t, errors.As(err, &un), "%v", err)
	require.Equal(t, 0, un.Alive, "the down datacenter's count")

	p, perr := retry.NewLadderPolicy(c.LocalQuorum, c.One)
	require.NoError(t, perr)
	v := p.OnUnavailable(stmt(c.EachQuorum, retry.Idempotent), un, 0)
	assert.Equal(t, same(c.LocalQuorum), v)
	assert.NoError(t, c.AssureSufficientLive(v.Level, r, "dc1", live), "%s can be met", v.Level)

	// Elsewhere a count of 0 is every replica the level could use.
	assert.Equal(t, rethrown, p.OnUnavailable(stmt(c.Quorum, retry.Idempotent), unavailable(c.Quorum, 2, 0), 0))
}
