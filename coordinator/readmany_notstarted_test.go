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
)

// preemptedCtx holds the first goroutine that asks whether it ended until
// released, as a goroutine preempted between taking a key and checking
// the context would be: another worker meanwhile checks, starts and reads
// the keys after it.
type preemptedCtx struct {
	context.Context
	calls   atomic.Int32
	held    chan struct{}
	release chan struct{}
}

func (c *preemptedCtx) Err() error {
	if c.calls.Add(1) == 1 {
		close(c.held)
		<-c.release
	}
	return c.Context.Err()
}

// A page whose context ends while a key before the page's rows is being
// started gives every key it never started the error of a key not started,
// or leaves it out of the page (Cut): none returns an empty result as if
// it had been read. Two workers take k0 and k1; one of them is held before
// it checks the context, the other reads its key and k2 (1 ms each), which hold the
// page's two rows, and stops; then the context ends and the held one finds
// it ended. k3 and k4, never started, hold a row each.
func TestReadManyKeysNeverStartedAfterTheContextEndedAreNotEmpty(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
		keys := []string{"k0", "k1", "k2", "k3", "k4"}
		seedRows(t, e, 1, keys...)
		inner, cancel := context.WithCancel(t.Context())
		ctx := &preemptedCtx{Context: inner, held: make(chan struct{}), release: make(chan struct{})}
		go func() {
			<-ctx.held
			time.Sleep(ms(50)) // the other worker reads (1 ms a read) what it can, and stops
			synctest.Wait()
			cancel()
			close(ctx.release)
		}()
		req := coordinator.ManyRequest{Table: tbl, Keys: keys, Level: consistency.One, PageSize: 2, Concurrency: 2, NowInSec: now}
		res, err := e.c.ReadMany(ctx, req)
		require.NoError(t, err)
		for _, r := range res {
			read := r.Err == nil && !r.Cut
			if read {
				assert.Len(t, r.Result.Partition.Rows, 1, "%s returned as read", r.Key)
			}
			t.Logf("%s: err=%v cut=%v rows=%d", r.Key, r.Err, r.Cut, len(r.Result.Partition.Rows))
		}
	})
}
