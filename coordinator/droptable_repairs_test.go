package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
)

// An ASYNC repair sent before its table was dropped and ended after keeps
// the totals' promise, sent = acked + failed + dropped + abandoned: its
// end was lost while its sending stayed, so a "repairs in flight" gauge
// computed from Total grew by one for each such table, forever.
func TestADroppedTablesLateRepairsStayInTheTotals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async}})
		const daily = "daily_0101"
		require.NoError(t, e.cluster.Seed(daily, row(key, "v2", 20)))
		require.NoError(t, e.replica(C).Seed(daily, row(key, "v1", 10)))
		_, err := e.c.Read(context.Background(), coordinator.Request{Table: daily, Key: key, Level: consistency.All})
		require.NoError(t, err)
		e.c.DropTable(daily) // its repair of C is still queued or being written
		time.Sleep(time.Second)
		settle()

		total := e.c.Metrics().Total
		assert.Equal(t, int64(1), total.RepairsSent)
		assert.Equal(t, int64(1), total.RepairsAcked, "the repair's end was lost with its table")
		assert.Equal(t, total.RepairsSent, total.RepairsAcked+total.RepairsFailed+total.RepairsDropped+total.RepairsAbandoned)
		p, _ := e.replica(C).Partition(daily, key)
		assert.Equal(t, row(key, "v2", 20), p, "the repair was written")
	})
}
