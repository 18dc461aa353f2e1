package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica"
)

// Ports of cassandra-dtest read_failures_test.py (TestReadFailures,
// CASSANDRA-12311). The dtest deletes `value` of 600 rows ("DELETE value
// FROM tombstonefailure WHERE id = 0 AND c = n") on all three nodes, sets
// tombstone_failure_threshold to 500 and reads SELECT value at ALL.

// cellTombstones is key as the dtest leaves it: n rows, each holding only
// a tombstone of value.
func cellTombstones(n int) replica.Partition {
	rows := make([]replica.Row, n)
	for i := range rows {
		rows[i] = replica.NewRow(fmt.Sprintf("%04d", i), replica.Tombstone("value", at(-100), now-100))
	}
	return replica.NewPartition(key, rows...)
}

func (e *env) selectValue(level consistency.Level) (coordinator.Result, error) {
	return e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: level,
		Columns: []string{"value"}, NowInSec: now})
}

// test_tombstone_failure_v4 and _v5: the client gets a ReadFailure whose
// per-replica reasons say "read too many tombstones" (protocol v5's error
// code map, code 0x0001), at every level and not only the dtest's ALL:
// Received 0 of BlockFor, and the failures that made BlockFor unreachable,
// each a *replica.TombstoneOverwhelmingError. The dtest's
// FallthroughRetryPolicy rethrows it; so does the default policy.
// test_tombstone_failure_v3 (a ReadTimeout under protocol v3, which has no
// ReadFailure) has no counterpart: readpath has one typed error per outcome.
func TestDtestTombstoneFailure(t *testing.T) {
	for _, level := range []consistency.Level{consistency.One, consistency.Quorum, consistency.All} {
		t.Run(level.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := policy(t, "10ms")
				o.TombstoneFailureThreshold = 500
				stored := cellTombstones(600)
				e := srpEnv(t, o, stored, stored, stored)

				_, err := e.selectValue(level)
				var failure *consistency.ReadFailureError
				require.ErrorAs(t, err, &failure)
				blockFor := level.BlockFor(consistency.Simple(3), "")
				assert.Equal(t, level, failure.Level)
				assert.Equal(t, blockFor, failure.BlockFor)
				assert.Zero(t, failure.Received)
				assert.False(t, failure.DataPresent)
				assert.Len(t, failure.Reasons, failure.Failures)
				assert.GreaterOrEqual(t, failure.Failures, 1)
				assert.LessOrEqual(t, failure.Failures, blockFor, "only the contacts were asked")
				for id, reason := range failure.Reasons {
					var toe *replica.TombstoneOverwhelmingError
					require.ErrorAs(t, reason, &toe, id)
					assert.Equal(t, 501, toe.Tombstones, id)
				}
				assert.Zero(t, e.c.Metrics().Total.SpeculativeRetries, "no hedge: every replica holds the tombstones")
				assert.Equal(t, retry.Rethrow, retry.DefaultPolicy{}.OnErrorResponse(retry.Statement{Level: level}, err, 0).Decision)
			})
		})
	}
}

// The dtest's log pattern "Scanned over N tombstones": under the failure
// threshold the same read succeeds, shows nothing, and warns only past
// tombstone_warn_threshold (1,000 by default, so 600 do not warn).
func TestDtestTombstoneWarning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stored := cellTombstones(600)
		e := srpEnv(t, coordinator.TableOptions{}, stored, stored, stored)
		res, err := e.selectValue(consistency.All)
		require.NoError(t, err)
		assert.Empty(t, res.Visible().Rows)
		assert.Equal(t, 600, res.Trace.Tombstones)
		assert.False(t, res.Trace.TombstoneWarning)

		require.NoError(t, e.c.SetTableOptions(tbl, coordinator.TableOptions{TombstoneWarnThreshold: 500}))
		res, err = e.selectValue(consistency.All)
		require.NoError(t, err)
		assert.True(t, res.Trace.TombstoneWarning)
		assert.EqualValues(t, 1, e.c.Metrics().Total.TombstoneWarnings)
		assert.False(t, errors.Is(err, replica.ErrTombstoneOverwhelming))
	})
}

// Cassandra warns only past tombstone_warn_threshold (ReadCommand's
// MetricRecording: tombstones > warningThreshold): 600 tombstones under a
// threshold of 600 do not warn.
func TestTombstoneWarningOnlyPastTheThreshold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stored := cellTombstones(600)
		e := srpEnv(t, coordinator.TableOptions{TombstoneWarnThreshold: 600}, stored, stored, stored)
		res, err := e.selectValue(consistency.All)
		require.NoError(t, err)
		assert.Equal(t, 600, res.Trace.Tombstones)
		assert.False(t, res.Trace.TombstoneWarning)
		assert.Zero(t, e.c.Metrics().Total.TombstoneWarnings)
	})
}

// paging_test.py TestPagingWithDeletions.test_failure_threshold_deletions:
// id 1 of its five partitions of 40 rows gets 3,000 rows more, each
// inserted with col1 null (a cell tombstone), and the partitions are read
// at ALL in pages of 1,000 under tombstone_failure_threshold 500: the read
// of id 1 fails with a ReadFailure whose reasons say "read too many
// tombstones" (code 0x0001 in protocol v5's error code map); it met 501 of
// them, its scan stopping there. The other partitions read as ever.
func TestDtestPagingFailsPastTheTombstoneThreshold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := policy(t, "NEVER")
		o.TombstoneFailureThreshold = 500
		e := newEnv(t, coordinator.Config{DefaultTable: o})
		for _, w := range pagedRows() {
			require.NoError(t, e.cluster.Seed(tbl, w.p))
		}
		nulls := make([]replica.Row, 3000)
		for i := range nulls {
			nulls[i] = replica.NewRow(fmt.Sprintf("n%04d", i), replica.Tombstone("col1", 2, now-100)).
				WithLiveness(replica.Inserted(2))
		}
		require.NoError(t, e.cluster.Seed(tbl, pk("1", nulls...)))

		res, err := e.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: pagedKeys,
			Level: consistency.All, PageSize: 1000, NowInSec: now})
		require.NoError(t, err)
		require.Len(t, res, len(pagedKeys))
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, res[0].Err, &failure)
		assert.Equal(t, consistency.All, failure.Level)
		assert.Len(t, failure.Reasons, failure.Failures)
		for id, reason := range failure.Reasons {
			var toe *replica.TombstoneOverwhelmingError
			require.ErrorAs(t, reason, &toe, id)
			assert.Equal(t, 501, toe.Tombstones, id)
			assert.Equal(t, 500, toe.Threshold, id)
		}
		for _, r := range res[1:] {
			require.NoError(t, r.Err, r.Key)
			assert.Len(t, r.Result.Visible().Rows, 40, r.Key)
		}
	})
}
