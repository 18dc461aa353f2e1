package retry_test

import (
	"errors"
	"testing"
	"testing/synctest"

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

// Two coordinators that cannot be reached, then a live one: the Java
// driver's ConsistencyDowngradingRetryPolicy moves on after each, as its
// default policy does, whatever the retry count; MaxRetries bounds it.
func TestDowngradingPolicyMovesPastEveryUnreachableTarget(t *testing.T) {
	for _, first := range []error{retry.ErrNotSent, retry.ErrConnectionClosed, retry.ErrOverloaded} {
		synctest.Test(t, func(t *testing.T) {
			ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{}})
			cl := newCluster()
			plan := []target{{name: "a", errs: []error{first}}, {name: "b", errs: []error{retry.ErrNotSent}},
				{name: "c"}}
			res, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
			require.NoError(t, err, "%v", first)
			assert.Equal(t, "c", res.Value)
			assert.Equal(t, c.Quorum, res.Level)
		})
	}
	synctest.Test(t, func(t *testing.T) {
		ex := newExecutor(t, retry.Config{Policy: retry.DowngradingPolicy{}, MaxRetries: 1})
		cl := newCluster()
		plan := []target{{name: "a", errs: []error{retry.ErrNotSent}}, {name: "b", errs: []error{retry.ErrNotSent}},
			{name: "c"}}
		_, err := retry.Execute(t.Context(), ex, stmt(c.Quorum, retry.Idempotent), plan, cl.attempt)
		require.ErrorIs(t, err, retry.ErrTooManyRetries)
	})
}
