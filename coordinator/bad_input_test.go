package coordinator_test

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
)

// ReadMany rejects a nil context as Read does, instead of panicking.
func TestReadManyNilContextIsInvalidRequest(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: nowhere})
	require.NoError(t, err)
	defer c.Close()
	var out []coordinator.KeyResult
	require.NotPanics(t, func() {
		//lint:ignore SA1012 a nil context is bad input the read must reject
		out, err = c.ReadMany(nil, coordinator.ManyRequest{Table: "t", Keys: []string{"k"}, Level: consistency.One}) //nolint:staticcheck
	})
	assert.ErrorIs(t, err, coordinator.ErrInvalidRequest)
	assert.Nil(t, out)
}

// A TableOptions that SetTableOptions refuses gets an error a caller can
// match, as New's does, and changes nothing.
func TestSetTableOptionsErrorIsTyped(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: nowhere})
	require.NoError(t, err)
	defer c.Close()
	before := policy(t, "5ms")
	require.NoError(t, c.SetTableOptions("t", before))

	err = c.SetTableOptions("t", coordinator.TableOptions{Strategy: 7})
	assert.ErrorIs(t, err, coordinator.ErrInvalidConfig)
	assert.ErrorIs(t, err, coordinator.ErrUnknownStrategy)
	assert.ErrorContains(t, err, "Strategy")

	err = c.SetTableOptions("t", coordinator.TableOptions{ReadRepair: repair.Mode(9)})
	assert.ErrorIs(t, err, coordinator.ErrInvalidConfig)
	assert.ErrorIs(t, err, repair.ErrUnknownMode)
	assert.ErrorContains(t, err, "ReadRepair")

	_, err = coordinator.New(coordinator.Config{Locator: nowhere, DefaultTable: coordinator.TableOptions{Strategy: 7}})
	assert.ErrorIs(t, err, coordinator.ErrUnknownStrategy, "New's error names the same cause")

	assert.Equal(t, before, c.TableOptions("t"), "a refused SetTableOptions changes nothing")
}

// New refuses a RepairQueue it could never make, instead of accepting it
// and panicking in the first read that repairs in the background (after
// which every ASYNC repair would be dropped, as the queue was never made).
func TestNewRejectsRepairQueueTooLargeToMake(t *testing.T) {
	for _, cfg := range []coordinator.Config{
		{RepairQueue: math.MaxInt},
		{RepairQueue: 1 << 30},
		{RepairWorkers: 1 << 30},
	} {
		cfg.Locator = nowhere
		c, err := coordinator.New(cfg)
		if !assert.ErrorIs(t, err, coordinator.ErrInvalidConfig, "%+v", cfg) {
			c.Close()
		}
	}
}

// Concurrent SetTableOptions calls on one table leave it with one call's
// options in full: what TableOptions reports is what reads hedge with.
func TestConcurrentSetTableOptionsLeaveOneCallsOptions(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: instantCluster(t)})
	require.NoError(t, err)
	defer c.Close()
	opts := []coordinator.TableOptions{policy(t, "5ms"), policy(t, "50ms"), policy(t, "7ms"), policy(t, "70ms")}
	for round := range 5000 {
		var wg sync.WaitGroup
		start := make(chan struct{})
		for _, o := range opts {
			wg.Go(func() { <-start; _ = c.SetTableOptions(tbl, o) })
		}
		close(start)
		wg.Wait()
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
		require.NoError(t, err)
		want := c.TableOptions(tbl).SpeculativeRetry.FixedDelay()
		if res.Trace.Threshold != want {
			t.Fatalf("round %d: TableOptions says speculative_retry %v, reads hedge at %v", round, want, res.Trace.Threshold)
		}
	}
}

// A NaN is reported as what it is, not as "above 1" or "negative".
func TestNaNConfigErrorsSayWhatIsWrong(t *testing.T) {
	_, err := coordinator.New(coordinator.Config{Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{Percent: math.NaN()}})
	assert.ErrorIs(t, err, coordinator.ErrInvalidConfig)
	assert.ErrorContains(t, err, "HedgeBudget.Percent must be a number at most 1, not NaN")
	_, err = coordinator.New(coordinator.Config{Locator: nowhere, Snitch: coordinator.SnitchConfig{Badness: math.NaN()}})
	assert.ErrorIs(t, err, coordinator.ErrInvalidConfig)
	assert.ErrorContains(t, err, "Snitch.Badness must be a number below +Inf (negative: no margin), not NaN")
}
