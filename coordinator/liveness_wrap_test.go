package coordinator_test

import (
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// countingLiveness wraps a Liveness to count its calls; it is no
// replica.OutcomeReporter, whatever it wraps.
type countingLiveness struct {
	l     coordinator.Liveness
	calls *atomic.Int64
}

func (c countingLiveness) IsAlive(ep replica.Endpoint) bool {
	c.calls.Add(1)
	return c.l.IsAlive(ep)
}

// A detector given as Liveness hears the reads' outcomes; wrapped, it does
// not, until Config.Outcomes names it.
func TestAWrappedLivenessHidesItsOutcomeReporter(t *testing.T) {
	for _, tc := range []struct {
		name     string
		outcomes bool
	}{{"wrapped", false}, {"wrapped with Outcomes", true}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := instantCluster(t)
				require.NoError(t, cl.Pin(tbl, key, A, B, C))
				require.NoError(t, cl.Replica(A).SetFault(replicatest.Down()))
				d, err := ring.NewDetector(ring.DetectorConfig{Seed: 1})
				require.NoError(t, err)
				defer d.Close()
				var calls atomic.Int64
				cfg := coordinator.Config{Locator: cl, Liveness: countingLiveness{d, &calls}}
				if tc.outcomes {
					cfg.Outcomes = d
				}
				c, err := coordinator.New(cfg)
				require.NoError(t, err)
				defer c.Close()
				_, err = readAt(c, tbl, consistency.All)
				require.Error(t, err, "A refuses connections")
				assert.Positive(t, calls.Load())
				assert.Equal(t, !tc.outcomes, d.IsAlive(endpoint(cl, A)), "convicted only when told")
			})
		})
	}
}
