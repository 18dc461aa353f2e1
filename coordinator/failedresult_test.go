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

// A read that fails after it merged the replicas' versions (here its
// BLOCKING repair's write failed) returns no data with its error, as a read
// that failed earlier does: a caller must not take an unrepaired merge for
// a result at its level.
func TestAReadFailedInItsRepairReturnsNoData(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := repairFailingCoordinator(t, B)
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.True(t, res.Partition.IsEmpty(), "a failed read returned %v", res.Partition)
		assert.Nil(t, res.PagingState)
		assert.NotEmpty(t, res.Trace.Requests, "its trace still comes back")
	})
}
