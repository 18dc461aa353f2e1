package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// A LatencySummary's quantiles are each its own: of 1000 reads, 980 taking
// 1 ms, 15 taking 10 ms and 5 taking 100 ms, the median is 1 ms, the 99th
// percentile 10 ms and the 99.9th 100 ms, in the table's metrics and in the
// total's.
func TestLatencySummaryShowsEachQuantile(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for _, step := range []struct {
			reads int
			took  float64 // ms
		}{{980, 1}, {15, 10}, {5, 100}} {
			for _, id := range []string{A, B, C} {
				e.behave(t, id, constant(ms(step.took)))
			}
			for range step.reads {
				_, _, err := e.read(consistency.One)
				require.NoError(t, err)
			}
		}
		m := e.c.Metrics()
		require.Len(t, m.Tables, 1)
		for _, l := range []coordinator.LatencySummary{m.Tables[0].Latency, m.Total.Latency} {
			assert.Equal(t, int64(1000), l.Count)
			assert.InEpsilon(t, ms(1), l.P50, 0.02, "p50")
			assert.InEpsilon(t, ms(10), l.P99, 0.02, "p99")
			assert.InEpsilon(t, ms(100), l.P999, 0.02, "p99.9")
			assert.InEpsilon(t, ms(100), l.Max, 0.02, "max")
		}
	})
}
