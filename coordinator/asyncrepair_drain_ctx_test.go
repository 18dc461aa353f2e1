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

// A nil context is bad input, refused with a typed error as Read and
// ReadMany refuse it (DESIGN.md's "nil context values"), whether or not a
// repair is pending.
func TestDrainRepairsRefusesANilContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		_, c := drainEnv(t, func(r replica.Replica) replica.Replica { return gatedApply{r, release} })
		var noCtx context.Context // a nil context is the bad input here
		assert.ErrorIs(t, c.DrainRepairs(noCtx), coordinator.ErrInvalidRequest, "nothing pending")
		_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		synctest.Wait() // B's repair is being written
		var drained error
		assert.NotPanics(t, func() { drained = c.DrainRepairs(noCtx) }, "a repair pending")
		assert.ErrorIs(t, drained, coordinator.ErrInvalidRequest, "a repair pending")
		close(release)
		require.NoError(t, c.DrainRepairs(context.Background()))
	})
}
