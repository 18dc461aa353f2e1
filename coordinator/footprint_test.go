package coordinator_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
)

// A coordinator makes its ASYNC repair queue when the first background
// repair needs it: at the default capacity of 1,024 jobs the queue's buffer
// is 304 KiB, thirty times what New allocates without it (10,408 bytes on
// Go 1.26, with the state of reads the Locator has not placed and the
// snitch's cache of 256 slots).
func TestNewMakesNoRepairQueue(t *testing.T) {
	cl := instantCluster(t)
	cfg := coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1"}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c, err := coordinator.New(cfg)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	defer c.Close()
	t.Logf("New allocated %d bytes", after.TotalAlloc-before.TotalAlloc)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10))
}
