package coordinator_test

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica/replicatest"
)

// Only the first Close waits, for the read timeout here, on an ASYNC
// repair whose replica ignores its context; a second, made while it waits,
// returns at once, as documented: the final metrics are the first's.
func TestOnlyTheFirstCloseWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Async)
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1)), Fault: replicatest.IgnoresContext(),
			Pauses: []replicatest.Window{{Start: ms(2), End: time.Hour}}})
		_, _, err := e.read(consistency.Quorum)
		require.NoError(t, err)
		synctest.Wait()
		start := time.Now()
		var wg sync.WaitGroup
		took := make([]time.Duration, 2)
		for i := range took {
			wg.Go(func() {
				assert.NoError(t, e.c.Close())
				took[i] = time.Since(start)
			})
		}
		wg.Wait()
		slices.Sort(took)
		assert.Equal(t, []time.Duration{0, 5 * time.Second}, took)
		assert.Equal(t, int64(1), e.c.Metrics().Total.RepairsAbandoned)
		time.Sleep(time.Hour) // the hung Apply returns
		synctest.Wait()
	})
}
