package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A Locator's invalid replication is a bad placement, as ErrBadPlacement's
// doc says, refused before anything is sent: the zero Replication (a
// Locator that forgot to set it) and a factor of 0.
func TestAnInvalidReplicationIsABadPlacement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		reps := []replica.Replica{e.replica(A), e.replica(B), e.replica(C)}
		for name, repl := range map[string]consistency.Replication{
			"zero":     {},
			"factor 0": consistency.Simple(0),
		} {
			c, err := coordinator.New(coordinator.Config{Locator: coordinator.LocatorFunc(
				func(string, string) ([]replica.Replica, consistency.Replication, error) { return reps, repl, nil })})
			require.NoError(t, err)
			_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			assert.ErrorIs(t, err, coordinator.ErrBadPlacement, name)
			assert.ErrorIs(t, err, consistency.ErrInvalidReplication, name)
			c.Close()
		}
		settle()
		assert.Zero(t, e.totalReads())
	})
}
