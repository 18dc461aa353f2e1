package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// Counters names every counter in snake_case and gives its value: an
// exporter sums or labels them without naming each.
func TestCountersNameEveryCounter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SetAlive(A, false))
		require.NoError(t, e.cluster.SetAlive(B, false))
		_, _, err := e.read(consistency.Quorum)
		require.Error(t, err)
		_, _, err = e.read(consistency.One)
		require.NoError(t, err)

		m := e.c.Metrics().Total
		got := map[string]int64{}
		var names []string
		for name, v := range m.Counters() {
			got[name] = v
			names = append(names, name)
		}
		assert.Equal(t, []string{
			"reads", "data_requests", "digest_requests",
			"speculative_retries", "hedge_wins", "failed_speculations",
			"reconcile_speculations", "additional_writes", "short_read_requests",
			"tombstone_warnings", "tombstone_failures",
			"no_candidate", "suppressed_budget", "suppressed_overload", "postponed_speculations",
			"digest_mismatches",
			"repairs_sent", "repairs_acked", "repairs_failed", "repairs_dropped", "repairs_abandoned", "repairs_timed_out",
			"unavailable", "timeouts", "failures", "cancelled", "other_errors",
		}, names)
		assert.Equal(t, m.Reads, got["reads"])
		assert.Equal(t, int64(1), got["unavailable"])
		assert.Equal(t, m.DataRequests, got["data_requests"])
		for range m.Counters() {
			break // a consumer may stop early
		}
	})
}
