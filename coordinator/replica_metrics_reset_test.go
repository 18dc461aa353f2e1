package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A replica forgotten and sent requests again under its ID (a node
// replaced by one of the same name) between two scrapes, whose new counts
// have overtaken the old by the second, shows the exporter a reset as a
// table made again does: its Since moves on, so that the exporter counts
// the requests since, not the difference, and so again on a clock that
// has not moved.
func TestReplicaMetricsShowWhenAReplicaCountsFrom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		time.Sleep(time.Second)
		first := time.Now()
		for range 2 {
			_, _, err := e.read(consistency.All)
			require.NoError(t, err)
		}
		before := replicaRow(t, e.c, A)
		assert.Equal(t, int64(2), before.Requests)
		assert.WithinDuration(t, first, before.Since, 0, "when the replica was first a candidate")

		time.Sleep(time.Second)
		e.c.ForgetReplica(A)
		again := time.Now()
		for range 3 {
			_, _, err := e.read(consistency.All)
			require.NoError(t, err)
		}
		after := replicaRow(t, e.c, A)
		assert.Equal(t, int64(3), after.Requests, "the counts start from zero again")
		assert.WithinDuration(t, again, after.Since, 0, "and Since says they did")

		// Forgotten and asked again on a clock that has not moved.
		e.c.ForgetReplica(A)
		_, _, err := e.read(consistency.All)
		require.NoError(t, err)
		last := replicaRow(t, e.c, A)
		assert.True(t, last.Since.After(after.Since), "%v, then %v", after.Since, last.Since)
	})
}
