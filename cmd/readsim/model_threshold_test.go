package main

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// In a synctest bubble the coordinator runs with no machine at all (timers
// fire on time, goroutines cost no time), which is what the ideal says it
// models, so the two must agree up to sampling noise. For a percentile
// policy that needs the model to hedge at the thresholds the run's reads
// ran with: the coordinator's first estimate, from its first 200 reads,
// mostly stays put in a run this short, but where it lands depends on the
// draws and on the order concurrent reads end in, which a bubble does not
// fix (with seed 5 the gc-pauses 99p threshold was near 10 ms in some runs
// and 60–70 ms in others, where the settled 99th percentile is 76 ms). A
// model hedging at the settled value had a p99 five times the run's (found
// by an audit), and one hedging at the median threshold a p99 3.3 times it
// in a run whose threshold moved (found by CI).
func TestIdealMatchesZeroOverheadCoordinator(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulation")
	}
	for _, seed := range []string{"1", "5"} {
		o, err := parseFlags([]string{"-scenarios", "gc-pauses", "-policies", "NEVER,95p,99p,MIN(99p,10ms)", "-seed", seed})
		require.NoError(t, err)
		o.meter = fixedMeter(0.1)
		var rows []row
		synctest.Test(t, func(t *testing.T) {
			rows, err = simulate(o, newProgress(&strings.Builder{}, 1))
		})
		require.NoError(t, err)
		for _, r := range rows {
			require.NotNil(t, r.P99VsIdeal)
			assert.InDelta(t, 1, *r.P99VsIdeal, 0.2, "seed %s %s: p99 %.2f ms, ideal %.2f ms", seed, r.Policy, r.P99, r.Ideal.P99)
			assert.InDelta(t, 1, *r.P50VsIdeal, 0.1, "seed %s %s: p50 %.2f ms, ideal %.2f ms", seed, r.Policy, r.P50, r.Ideal.P50)
		}
	}
}
