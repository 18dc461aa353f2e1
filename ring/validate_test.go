package ring_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// A zero Locator or Detector, which the docs call unusable, is refused by
// coordinator.New with ErrInvalidConfig, where it was accepted and the
// first read crashed the caller with a nil dereference.
func TestCoordinatorRefusesAZeroLocatorOrDetector(t *testing.T) {
	loc, err := ring.NewLocator(ring.LocatorConfig{
		Nodes:   []ring.Node{{ID: "n1", Datacenter: "dc1", Rack: "r1", Tokens: []int64{0}}},
		Tables:  map[string]consistency.Replication{"t": consistency.Simple(1)},
		Connect: func(n ring.Node) (replica.Replica, error) { return replicatest.NewReplica(n.Endpoint()), nil },
	})
	require.NoError(t, err)
	det, err := ring.NewDetector(ring.DetectorConfig{})
	require.NoError(t, err)
	defer det.Close()
	require.NoError(t, loc.Validate())
	require.NoError(t, det.Validate())

	for _, tc := range []struct {
		name  string
		cfg   coordinator.Config
		field string
	}{
		{"zero Locator", coordinator.Config{Locator: &ring.Locator{}}, "Locator"},
		{"zero Detector as Liveness", coordinator.Config{Locator: loc, Liveness: &ring.Detector{}}, "Liveness"},
		{"zero Detector as Outcomes", coordinator.Config{Locator: loc, Outcomes: &ring.Detector{}}, "Outcomes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := coordinator.New(tc.cfg)
			require.ErrorIs(t, err, coordinator.ErrInvalidConfig)
			assert.ErrorIs(t, err, ring.ErrInvalidConfig)
			var ce *ring.ConfigError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Contains(t, err.Error(), tc.field+": ")
		})
	}
	c, err := coordinator.New(coordinator.Config{Locator: loc, Liveness: det})
	require.NoError(t, err)
	c.Close()
}
