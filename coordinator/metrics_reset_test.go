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

// A table dropped and made again between two scrapes, whose new counts
// have overtaken the old by the second, shows the exporter a reset: its
// counters only grew from one scrape to the next, but Since moved on, so
// that the exporter counts the reads since the drop, not the difference
// (Prometheus' _created, OpenTelemetry's start time). The total's Since
// is when New made the coordinator, and does not move.
func TestMetricsShowWhenATableCountsFrom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		e := newEnv(t, coordinator.Config{})
		time.Sleep(time.Second)
		first := time.Now()
		for range 3 {
			_, _, err := e.read(consistency.One)
			require.NoError(t, err)
		}
		before, ok := e.c.TableMetrics(tbl)
		require.True(t, ok)
		assert.Equal(t, int64(3), before.Reads)
		assert.WithinDuration(t, first, before.Since, 0)

		time.Sleep(time.Second)
		e.c.DropTable(tbl)
		remade := time.Now()
		for range 5 {
			_, _, err := e.read(consistency.One)
			require.NoError(t, err)
		}
		m := e.c.Metrics()
		require.Len(t, m.Tables, 1)
		after := m.Tables[0]
		assert.Equal(t, int64(5), after.Reads, "the counts start from zero again")
		assert.Greater(t, after.Reads, before.Reads, "so the reset is not a fall")
		assert.WithinDuration(t, remade, after.Since, 0, "but Since says it was one")
		assert.WithinDuration(t, start, m.Total.Since, 0)
		assert.Equal(t, int64(8), m.Total.Reads)

		// SetTableOptions makes a table that is not there, and alters one
		// that is without resetting it.
		e.c.DropTable(tbl)
		time.Sleep(time.Second)
		set := time.Now()
		require.NoError(t, e.c.SetTableOptions(tbl, policy(t, "NEVER")))
		time.Sleep(time.Second)
		require.NoError(t, e.c.SetTableOptions(tbl, policy(t, "ALWAYS")))
		tm, ok := e.c.TableMetrics(tbl)
		require.True(t, ok)
		assert.WithinDuration(t, set, tm.Since, 0)

		// Made, dropped and made again on a clock that has not moved
		// (this bubble's, or a coarse one), it still shows the reset.
		e.c.DropTable(tbl)
		time.Sleep(time.Second)
		require.NoError(t, e.c.SetTableOptions(tbl, policy(t, "NEVER")))
		made, ok := e.c.TableMetrics(tbl)
		require.True(t, ok)
		e.c.DropTable(tbl)
		_, _, err := e.read(consistency.One)
		require.NoError(t, err)
		again, ok := e.c.TableMetrics(tbl)
		require.True(t, ok)
		assert.True(t, again.Since.After(made.Since), "%v, then %v", made.Since, again.Since)
	})
}
