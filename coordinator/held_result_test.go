package coordinator_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// heldRead is a read's outcome as returned, and a copy of it made then.
type heldRead struct {
	res       coordinator.Result
	partition string
	requests  []coordinator.RequestTrace
	repaired  []string
	paging    []byte
	err       error
	errText   string
}

// hold copies what a read returned, first checking that its trace names a
// replica for every request: a trace in memory the read cleared does not.
func hold(t *testing.T, res coordinator.Result, err error) heldRead {
	for i, rt := range res.Trace.Requests {
		assert.NotEmpty(t, rt.Endpoint, "request %d of a read just returned", i)
	}
	h := heldRead{res: res, partition: res.Partition.String(), requests: slices.Clone(res.Trace.Requests),
		repaired: slices.Clone(res.Trace.Repaired), paging: slices.Clone(res.PagingState), err: err}
	if err != nil {
		h.errText = err.Error()
	}
	return h
}

// check fails unless what the read returned is as it was then.
func (h heldRead) check(t *testing.T) {
	t.Helper()
	key := h.res.Partition.Key
	assert.Equal(t, h.partition, h.res.Partition.String(), "partition of %q", key)
	assert.Equal(t, h.requests, h.res.Trace.Requests, "requests of %q", key)
	assert.Equal(t, h.repaired, h.res.Trace.Repaired, "repaired replicas of %q", key)
	assert.Equal(t, h.paging, h.res.PagingState, "paging state of %q", key)
	if h.err != nil {
		assert.Equal(t, h.errText, h.err.Error(), "error of %q", key)
	}
}

// What Read returns stays as it was while thousands more reads run —
// matching, mismatching and repairing, paged, short-read protected,
// hedged, failing, timing out and cancelled — though reads recycle their
// state, calls, channels and version lists: the result's partition, its
// trace's requests and repaired replicas, its paging state, and a failed
// read's error (whose reasons are a map the read built).
func TestAReturnedResultNeverChanges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		loc, _ := fickleCluster(3, 4)
		c, err := coordinator.New(coordinator.Config{Locator: loc, LocalDatacenter: "dc1",
			ReadTimeout: 10 * time.Millisecond, Tables: isolationTables(t), HedgeBudget: coordinator.HedgeBudget{Unlimited: true}})
		require.NoError(t, err)
		names := []string{"always", "fixed", "p50", "digest-first", "digest-first-fixed", "never"}
		levels := []consistency.Level{consistency.One, consistency.Quorum, consistency.All,
			consistency.LocalQuorum, consistency.EachQuorum}

		var hmu sync.Mutex
		var held []heldRead
		var wg sync.WaitGroup
		for g := range 8 {
			rng := rand.New(rand.NewPCG(uint64(g), 5))
			wg.Go(func() {
				var mine []heldRead
				for n := range 250 {
					req := coordinator.Request{Table: names[rng.IntN(len(names))], Key: fmt.Sprintf("key%d-%d", g, n),
						Level: levels[rng.IntN(len(levels))]}
					if rng.IntN(2) == 0 {
						req.Query.Limit = 1 + rng.IntN(3)
						req.PageSize = rng.IntN(3)
					}
					ctx, cancel := context.WithCancel(context.Background())
					if rng.IntN(5) == 0 {
						time.AfterFunc(time.Duration(rng.IntN(1500))*time.Microsecond, cancel)
					}
					res, err := c.Read(ctx, req)
					cancel()
					mine = append(mine, hold(t, res, err))
					for _, h := range mine[max(0, len(mine)-8):] { // while other reads run
						h.check(t)
					}
				}
				hmu.Lock()
				held = append(held, mine...)
				hmu.Unlock()
			})
		}
		wg.Wait()
		require.NoError(t, c.Close())
		time.Sleep(time.Second) // late answers of replicas that ignore their context
		synctest.Wait()

		var mismatched, repaired, paged, failed int
		for _, h := range held {
			h.check(t)
			if h.err != nil {
				failed++
			}
			if h.res.Trace.DigestMismatch {
				mismatched++
			}
			if len(h.res.Trace.Repaired) > 0 {
				repaired++
			}
			if h.res.PagingState != nil {
				paged++
			}
		}
		for _, n := range []int{mismatched, repaired, paged, failed} {
			assert.Positive(t, n, "the test exercised too little: %d mismatched, %d repaired, %d paged, %d failed",
				mismatched, repaired, paged, failed)
		}
	})
}
