package coordinator_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// zeroPlacer is a PlacementLocator whose placements were never made by
// NewPlacement: a cache of Placement values, say, handing out a slot it
// has not filled yet.
type zeroPlacer struct{ cache []coordinator.Placement }

func (zeroPlacer) Locate(string, string) ([]replica.Replica, consistency.Replication, error) {
	return nil, consistency.Replication{}, nil
}

func (z zeroPlacer) LocatePlacement(string, string) (*coordinator.Placement, error) {
	return &z.cache[0], nil
}

// A read of a zero Placement (one not made by NewPlacement: no replicas,
// no replication) is a locator's unusable answer, as a nil placement is:
// it fails with ErrBadPlacement before anything is sent, at every level,
// not with a replication error that wraps nothing of the coordinator's,
// nor with a *consistency.ReadFailureError for 0 required answers and 0
// failures, which a retry policy takes for replicas that failed.
func TestZeroPlacementIsBadPlacement(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: zeroPlacer{cache: make([]coordinator.Placement, 1)}})
	require.NoError(t, err)
	defer c.Close()
	for _, l := range []consistency.Level{consistency.One, consistency.Quorum, consistency.All, consistency.EachQuorum} {
		_, err := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: l})
		assert.ErrorIs(t, err, coordinator.ErrBadPlacement, "%v", l)
		var failure *consistency.ReadFailureError
		assert.False(t, errors.As(err, &failure), "%v: a ReadFailureError for replicas that never were: %v", l, err)
	}
}
