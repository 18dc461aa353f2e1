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

// Which reads a table's tracker records does not depend on its policy: a
// read its caller gives up on once it ran into the tail is recorded under
// ALWAYS, a 0 ms delay (FIXED, or MIN's bound: MIN(75p,0ms) recorded none
// after the change that made the others) or NEVER as under the table's last
// percentile (see
// TestReadsCancelledPastTheThresholdHoldItUp), so that a percentile set
// back learns from the same window. Under those policies none was, and a
// 75p set back after half the reads ran 100 ms and were cancelled at 10 ms
// stood at the 1 ms of the others, where under 75p it stands above 5 ms.
func TestReadsCancelledUnderAnyPolicyHoldUpTheNextOne(t *testing.T) {
	for _, before := range []string{"ALWAYS", "0ms", "MIN(75p,0ms)", "NEVER", "75p"} {
		t.Run(before, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "75p"), ThresholdRefresh: ms(5),
					HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
				readMany(t, e.c, 1, 20) // every replica answers in 1 ms
				require.NoError(t, e.c.SetTableOptions(tbl, policy(t, before)))
				for range 50 {
					readFastThenGiveUpOnSlow(t, e, false)
					time.Sleep(ms(1))
				}
				settle()
				require.NoError(t, e.c.SetTableOptions(tbl, policy(t, "75p")))
				time.Sleep(ms(10))
				e.read(consistency.Quorum) // refreshes the threshold
				th := e.c.Metrics().Tables[0].Threshold
				assert.Greater(t, th, ms(5), "half the reads ran 10 ms and more")
				assert.LessOrEqual(t, th, ms(11), "no more than they were seen to run")
			})
		})
	}
}
