package coordinator_test

import (
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// deletedRows is key with one live row and n deleted ones, as a user
// deleting in a loop leaves it.
func deletedRows(n int) replica.Partition {
	rows := []replica.Row{replica.NewRow("a", replica.Live("v", "x", 10))}
	for i := range n {
		rows = append(rows, replica.NewRow(fmt.Sprintf("d%04d", i)).WithDeletion(replica.DeletedAt(20, 1_700_000_000)))
	}
	return replica.NewPartition(key, rows...)
}

// A replica refusing a read for its tombstones answered: it is healthy,
// and every replica holds the same tombstones. Counting the refusal as a
// miss showed healthy replicas as failing in Metrics().Replicas and
// ranked them behind the others, as Cassandra's snitch, which ignores a
// failure response, does not.
func TestTombstoneRefusalIsNoMiss(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := policy(t, "10ms")
		o.TombstoneFailureThreshold = 100
		e := newEnv(t, coordinator.Config{DefaultTable: o})
		require.NoError(t, e.cluster.Seed(tbl, deletedRows(150)))
		for range 6 {
			_, _, err := e.read(consistency.One)
			var toe *replica.TombstoneOverwhelmingError
			require.True(t, errors.As(err, &toe), "%v", err)
		}
		settle()
		m := e.c.Metrics()
		require.EqualValues(t, 6, m.Total.TombstoneFailures)
		var requests int64
		for _, r := range m.Replicas {
			require.Zero(t, r.Misses, "%s", r.Endpoint.ID)
			requests += r.Requests
		}
		require.EqualValues(t, 6, requests)
	})
}

// A read refused for tombstones traces how many the refusal met: the trace
// said 0, though the replica stopped at 101.
func TestTombstoneRefusalTraced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := policy(t, "10ms")
		o.TombstoneWarnThreshold, o.TombstoneFailureThreshold = 10, 100
		e := newEnv(t, coordinator.Config{DefaultTable: o})
		require.NoError(t, e.cluster.Seed(tbl, deletedRows(150)))
		res, _, err := e.read(consistency.One)
		var toe *replica.TombstoneOverwhelmingError
		require.True(t, errors.As(err, &toe), "%v", err)
		require.Equal(t, toe.Tombstones, res.Trace.Tombstones)
		require.False(t, res.Trace.TombstoneWarning)
		m := e.c.Metrics().Total
		require.EqualValues(t, 1, m.TombstoneFailures)
		require.Zero(t, m.TombstoneWarnings)
	})
}

// A trace's String says that the read met tombstones past the warning
// threshold: an operator logging traces saw nothing of it.
func TestTombstoneWarningInTraceString(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := policy(t, "10ms")
		o.TombstoneWarnThreshold = 10
		e := newEnv(t, coordinator.Config{DefaultTable: o})
		require.NoError(t, e.cluster.Seed(tbl, deletedRows(50)))
		res, _, err := e.read(consistency.One)
		require.NoError(t, err)
		require.True(t, res.Trace.TombstoneWarning)
		require.Contains(t, res.Trace.String(), fmt.Sprintf(", %d tombstones (over the warning threshold)", res.Trace.Tombstones))
	})
}
