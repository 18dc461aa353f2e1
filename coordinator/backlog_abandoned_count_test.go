package coordinator_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
)

// A queued repair dropped because its replica holds an ASYNC write given
// up on carries a *BacklogError whose Abandoned counts that write: 1 here,
// far below the cap (the default, 1024), as its doc says; it said
// Abandoned was always as many as the cap allows. The count is the one
// the drop was decided on, never one loaded after, which a write returning
// in between left at 0.
func TestABacklogErrorOfAHungWriteCountsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		events := make(chan coordinator.RepairEvent, 8)
		c, release := hungApplyEnv(t, coordinator.Config{
			Observer: coordinator.ObserverFuncs{Repair: func(e coordinator.RepairEvent) { events <- e }}})
		defer release()
		require.Equal(t, []string{B}, readAll(t, c, key).Trace.Repaired)
		require.Equal(t, []string{B}, readAll(t, c, k2).Trace.Repaired)
		time.Sleep(time.Second)
		settle()

		require.Len(t, events, 1, "k2's repair, dropped once the worker gave up on key's")
		var be *coordinator.BacklogError
		require.ErrorAs(t, (<-events).Err, &be)
		assert.Equal(t, int64(1), be.Abandoned)
		assert.Equal(t, int64(1), abandonedCounts(t, c)[B])
	})
}
