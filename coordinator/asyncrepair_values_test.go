package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

type spanKey struct{}

// applyContextRecorder records what the context of each Apply carries.
type applyContextRecorder struct {
	replica.Replica
	gate <-chan struct{} // closed once the read's caller has cancelled
	seen chan<- applyContext
}

type applyContext struct {
	span        any
	hasDeadline bool
	err         error
}

func (a applyContextRecorder) Apply(ctx context.Context, m replica.Mutation) error {
	<-a.gate
	_, ok := ctx.Deadline()
	a.seen <- applyContext{span: ctx.Value(spanKey{}), hasDeadline: ok, err: ctx.Err()}
	return a.Replica.Apply(ctx, m)
}

// An ASYNC repair's write carries the values of its read's context, as the
// read's own requests do, so that a transport passes the caller's trace
// on to it (the write went out as a trace of its own, its parent lost),
// but not the read's end: it runs after its read returned, and its
// caller cancelled, under a deadline of its own.
func TestAsyncRepairWritesCarryTheirReadsContextValues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := instantCluster(t)
		seen, gate := make(chan applyContext, 1), make(chan struct{})
		reps, _, err := cl.Locate(tbl, key)
		require.NoError(t, err)
		stale := reps[1].Endpoint().ID
		c, err := coordinator.New(coordinator.Config{
			Locator: wrapID(cl, stale, func(r replica.Replica) replica.Replica { return applyContextRecorder{r, gate, seen} }),
			DefaultTable: coordinator.TableOptions{ReadRepair: repair.Async,
				SpeculativeRetry: policy(t, "NEVER").SpeculativeRetry},
		})
		require.NoError(t, err)
		defer c.Close()
		for _, r := range reps {
			if id := r.Endpoint().ID; id != stale {
				require.NoError(t, cl.SeedOn(tbl, row(key, "v2", 20), id))
			}
		}
		ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), spanKey{}, "span-1"), time.Hour)
		_, err = c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		require.NoError(t, err)
		cancel()
		close(gate)
		got := <-seen
		require.Equal(t, applyContext{span: "span-1", hasDeadline: true}, got)
		require.NoError(t, c.DrainRepairs(context.Background()))
		p, err := cl.Replica(stale).Read(context.Background(), replica.Command{Table: tbl, Key: key})
		require.NoError(t, err)
		require.Equal(t, row(key, "v2", 20), p.Partition, "the write was applied")
	})
}
