package coordinator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/coordinator"
)

// RepairQueue and RepairWorkers are accepted up to the bounds their docs
// state, 1<<20 and 1<<16, and refused one above. New makes neither, so
// accepting the largest costs nothing here.
func TestRepairQueueAndWorkersBoundsAreTheDocumentedOnes(t *testing.T) {
	for _, c := range []struct {
		cfg coordinator.Config
		ok  bool
	}{
		{coordinator.Config{RepairQueue: 1 << 20}, true},
		{coordinator.Config{RepairQueue: 1<<20 + 1}, false},
		{coordinator.Config{RepairWorkers: 1 << 16}, true},
		{coordinator.Config{RepairWorkers: 1<<16 + 1}, false},
	} {
		c.cfg.Locator = nowhere
		co, err := coordinator.New(c.cfg)
		if c.ok {
			if assert.NoError(t, err, "queue %d, workers %d", c.cfg.RepairQueue, c.cfg.RepairWorkers) {
				co.Close()
			}
			continue
		}
		assert.ErrorIs(t, err, coordinator.ErrInvalidConfig, "queue %d, workers %d", c.cfg.RepairQueue, c.cfg.RepairWorkers)
	}
}
