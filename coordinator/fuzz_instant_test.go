package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// readsAtOnce runs reads in a synctest bubble on a coordinator that config
// makes over a fuzzCluster built there (timers and channels made outside a
// bubble cannot block durably in it). The replicas answer at once, so no
// fake time may pass: a read that waited for a hedge or the deadline was
// wedged, which a typed timeout error would hide. A read blocked for good
// fails as the bubble's deadlock; a goroutine left after Close, as a leak.
func readsAtOnce(t *testing.T, config func(*replicatest.Cluster) coordinator.Config,
	reads func(*testing.T, *coordinator.Coordinator)) {
	synctest.Test(t, func(t *testing.T) {
		c, err := coordinator.New(config(fuzzCluster(t)))
		require.NoError(t, err)
		defer c.Close()
		start := time.Now()
		reads(t, c)
		require.Zero(t, time.Since(start), "reads from replicas that answer at once waited on a timer")
	})
}

// overFuzzCluster configures a coordinator to read fuzzCluster as it is.
func overFuzzCluster(cl *replicatest.Cluster) coordinator.Config {
	return coordinator.Config{Locator: cl, Liveness: cl}
}
