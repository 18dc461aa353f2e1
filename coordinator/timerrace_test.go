package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// With a 3 ms threshold and replicas that answer in exactly 3 ms, every
// read's timer is due just as its answers arrive, so the read often ends
// and recycles its timer while the timer's function is under way. That
// firing must not tick into the next read, which would then hedge at 0 s
// although nothing was slow.
func TestNoReadHedgesBeforeItsThreshold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "3ms"), HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		for _, id := range []string{A, B, C} {
			e.behave(t, id, constant(ms(3)))
		}
		for i := range 2400 {
			res, _, err := e.read(consistency.Quorum)
			require.NoError(t, err)
			if h := res.Trace.Hedge; h.Fired {
				require.GreaterOrEqual(t, h.At, ms(3), "read %d hedged before its threshold:\n%v", i, res.Trace)
			}
		}
	})
}
