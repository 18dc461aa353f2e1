package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Repair under a query writes only what the query covered: B is stale in
// rows inside and outside the slice, and in a column not read; the repair
// carries the slice's rows, up to the limit, in the columns read.
func TestRepairCoversOnlyWhatTheQueryRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		newer := func(ck string) replica.Row {
			return replica.NewRow(ck, replica.Live("v", ck+"-new", 30), replica.Live("w", ck+"-new", 30))
		}
		all := []string{"1", "2", "3", "4", "5", "6"}
		fresh := seeded(t, all, newer("1"), newer("3"), newer("4"), newer("5"), newer("6"))
		var repairs []replica.Partition
		e := srpEnv(t, coordinator.TableOptions{ReadRepair: repair.Blocking}, fresh, seeded(t, all), fresh)
		require.NoError(t, e.c.Close())
		c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
			Observer: coordinator.ObserverFuncs{Repair: func(ev coordinator.RepairEvent) { repairs = append(repairs, ev.Mutation) }}})
		require.NoError(t, err)
		defer c.Close()

		q := replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("3"), End: replica.Top()}}, Limit: 2}
		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All,
			Query: q, Columns: []string{"v"}, NowInSec: now})
		require.NoError(t, err)
		require.True(t, res.Trace.DigestMismatch)
		require.Len(t, repairs, 1, "B only")
		var cks []string
		for _, r := range repairs[0].Rows {
			cks = append(cks, r.Clustering)
			for _, cell := range r.Cells {
				assert.Equal(t, "v", cell.Column, "only the column read")
			}
		}
		assert.Equal(t, []string{"3", "4"}, cks, "the slice, up to the limit: not 1, not 5 or 6")
	})
}

// A replica that meets more tombstones than the failure threshold refuses
// the read, which fails at once with the typed error among its reasons
// (no hedge: another replica would meet the same tombstones); past the
// warning threshold a read is counted and flagged in its trace.
func TestTombstoneThresholds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rows []replica.Row
		for i := range 30 {
			rows = append(rows, del(string(rune('a'+i%26))+string(rune('a'+i/26)), 20))
		}
		p := replica.NewPartition(key, append(rows, ins("z", 10))...)
		o := coordinator.TableOptions{TombstoneWarnThreshold: 10, TombstoneFailureThreshold: 20}
		o.SpeculativeRetry = policy(t, "5ms").SpeculativeRetry // a failure would hedge at once
		e := srpEnv(t, o, p, p, p)

		_, took, err := e.read(consistency.Quorum)
		var overwhelmed *replica.TombstoneOverwhelmingError
		require.ErrorAs(t, err, &overwhelmed)
		assert.Equal(t, 20, overwhelmed.Threshold)
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		assert.Equal(t, ms(1), took, "failed at the first refusal")
		m := e.c.Metrics().Total
		assert.Equal(t, int64(1), m.TombstoneFailures)
		assert.Zero(t, m.SpeculativeRetries)

		o.TombstoneFailureThreshold = 100
		require.NoError(t, e.c.SetTableOptions(tbl, o))
		res, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		assert.True(t, res.Trace.TombstoneWarning)
		assert.Equal(t, 30, res.Trace.Tombstones)
		assert.Equal(t, int64(1), e.c.Metrics().Total.TombstoneWarnings)
		assert.False(t, errors.Is(err, replica.ErrTombstoneOverwhelming))
	})
}
