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
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/replica"
)

// timedApply acknowledges a repair write after the delay it holds, without
// applying it: its replica stays stale, so every read repairs it.
type timedApply struct {
	replica.Replica
	d *atomic.Int64
}

func (s timedApply) Apply(ctx context.Context, _ replica.Mutation) error {
	t := time.NewTimer(time.Duration(s.d.Load()))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// DESIGN 2.4: a percentile threshold must not feed on its own hedges;
// sustained hedging must not drive it towards zero. The additional-write
// threshold learns how long repair rounds take, additional writes' wait
// included. Timed write by write, it recorded each additional write's own
// latency and never the slow repair write it stood in for (cancelled with
// the read, then queued): while a stale replica's writes were slow it
// learnt only the fast bystander's acks, fell to them, and once the
// replica healed it still fired additional writes at nearly every repair,
// for good: they always beat the healed replica's normal writes, so its
// latency was never learnt again. A quiet table (one read a second) is
// within the default budget's floor, so nothing bounds it.
func TestAdditionalWriteThresholdDoesNotFeedOnItsOwnWrites(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		require.NoError(t, cl.SeedOn(tbl, row(key, "val1", 20), A))
		require.NoError(t, cl.SeedOn(tbl, row(key, "val2", 20), B, C))
		var aWrite atomic.Int64
		aWrite.Store(int64(ms(10)))
		p, err := latency.ParseSpeculativeRetry("99p")
		require.NoError(t, err)
		c, err := coordinator.New(coordinator.Config{
			Locator:      wrapping(cl, 1, func(r replica.Replica) replica.Replica { return timedApply{r, &aWrite} }),
			Liveness:     cl,
			Snitch:       coordinator.SnitchConfig{Disabled: true}, // A stays the data replica, B the digest one
			DefaultTable: coordinator.TableOptions{AdditionalWritePolicy: p},
		})
		require.NoError(t, err)
		defer c.Close()

		// reads reads n times, one a second, and returns how many of the
		// last 100 sent additional writes.
		reads := func(n int) int {
			fired := 0
			for i := range n {
				res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				require.NoError(t, err)
				require.True(t, res.Trace.DigestMismatch)
				if i >= n-100 && res.Trace.AdditionalWrite.Fired {
					fired++
				}
				time.Sleep(time.Second)
			}
			return fired
		}
		before := reads(300) // A's repair writes take 10 ms: the threshold learns that
		assert.LessOrEqual(t, before, 5, "a 99p policy over a steady 10 ms")

		aWrite.Store(int64(ms(50))) // A's writes slow down for a few minutes
		reads(300)

		aWrite.Store(int64(ms(10))) // and heal: nothing differs from the first phase
		after := reads(300)
		assert.LessOrEqual(t, after, 5, "after A healed, %d of the last 100 repairs sent additional writes (%d before the slowdown)", after, before)
		m := c.Metrics().Total
		t.Logf("additional writes %d over %d reads", m.AdditionalWrites, m.Reads)
		synctest.Wait()
	})
}
