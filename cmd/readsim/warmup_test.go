package main

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the warm-up really reads, against -reads' "after a warm-up of a
// quarter as many": in a synctest bubble, so the run's time is virtual.
// At least a quarter (a fan-out run warms up a whole chunk of measured/16
// requests, 6 times a quarter), and none of it in the measured figures.
func TestWarmUpSize(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulation")
	}
	o, err := parseFlags([]string{"-reads", "400", "-scenarios", "fanout", "-policies", "NEVER"})
	require.NoError(t, err)
	o.meter = func() func() timing { return func() timing { return timing{} } }
	var out outcome
	synctest.Test(t, func(t *testing.T) {
		out, err = runJob(job{s: o.scenarios[0], policy: o.policies[0].policy, p: o.policies[0].p}, o)
	})
	require.NoError(t, err)
	assert.Equal(t, 100, out.shape.measured)
	assert.Equal(t, int64(100), out.lat.count())
	assert.Equal(t, int64(100*100), out.metrics.Reads, "measured partition reads, warm-up excluded")
	// At least a quarter of 400 partition reads; in fact a whole chunk of
	// 100/16 = 6 requests, 600 partition reads.
	assert.GreaterOrEqual(t, out.shape.warmUp, 100)
	t.Logf("warm-up: %d partition reads for %d measured", out.shape.warmUp, out.metrics.Reads)
}
