package coordinator_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// stallingLiveness is up for everyone, but once armed, its first question
// about a replica waits for release: an ASYNC repair worker that took its
// job before Close, held up until Close has given up on the workers.
type stallingLiveness struct {
	armed   atomic.Bool
	stalled chan struct{}
	release chan struct{}
}

func (l *stallingLiveness) IsAlive(replica.Endpoint) bool {
	if l.armed.CompareAndSwap(true, false) {
		close(l.stalled)
		<-l.release
	}
	return true
}

// A queued ASYNC repair whose worker had taken it, but not yet begun its
// write, when Close gave up waiting for the workers, is still counted:
// once it ends, RepairsSent is the sum of how repairs ended, as documented.
func TestAsyncRepairStartedAfterCloseGaveUpIsCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Async)
		live := &stallingLiveness{stalled: make(chan struct{}), release: make(chan struct{})}
		c, err := coordinator.New(coordinator.Config{Locator: e.cluster, Liveness: live,
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async}})
		require.NoError(t, err)
		go func() { // after the read's plan, before its repair's worker asks
			time.Sleep(ms(0.5))
			live.armed.Store(true)
		}()
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		<-live.stalled // the worker holds B's repair
		require.NoError(t, c.Close())
		close(live.release)
		synctest.Wait()
		m := c.Metrics().Total
		require.Equal(t, int64(1), m.RepairsSent)
		assert.Equal(t, m.RepairsSent, m.RepairsAcked+m.RepairsFailed+m.RepairsDropped+m.RepairsAbandoned, "%v", c.Metrics())
	})
}
