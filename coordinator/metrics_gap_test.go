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

// A table busy for a while, idle for two minutes and then read again,
// with no Metrics call in between, shows in Metrics every read after the
// gap: recorded as Record does, those before its next look at the clock
// were filed with the sub-window before the gap and left the window with
// it (276 of the 300 showed).
func TestMetricsCountTheReadsAfterAnIdleSpell(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		for range 1000 {
			_, _, err := e.read(consistency.One)
			require.NoError(t, err)
		}
		time.Sleep(2 * time.Minute)
		for range 300 {
			_, _, err := e.read(consistency.One)
			require.NoError(t, err)
		}
		m := e.c.Metrics()
		assert.Equal(t, int64(300), m.Total.Latency.Count)
		assert.Equal(t, int64(300), m.Tables[0].Latency.Count)
	})
}
