package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A read after Close fails with ErrClosed before anything is sent, and
// its result is zero: no data and a zero trace, as for any read refused
// before it started; ReadMany likewise.
func TestAReadAfterCloseSendsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		_, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		settle()
		before := e.totalReads()
		require.NoError(t, e.c.Close())

		res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.Equal(t, coordinator.ErrClosed, err)
		assert.Zero(t, res)
		many, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{key}, Level: consistency.One})
		assert.Equal(t, coordinator.ErrClosed, err)
		assert.Nil(t, many)
		settle()
		assert.Equal(t, before, e.totalReads(), "no request sent")
	})
}
