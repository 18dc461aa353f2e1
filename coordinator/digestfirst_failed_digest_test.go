package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

var errDigestReadFails = errors.New("test: digest read failed")

// failsDigests fails digest reads at once; data reads and writes go through.
type failsDigests struct{ replica.Replica }

func (f failsDigests) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if cmd.DigestOnly {
		return replica.Response{}, errDigestReadFails
	}
	return f.Replica.Read(ctx, cmd)
}

// hangsWrites never acknowledges a write: it returns when its context ends.
type hangsWrites struct{ replica.Replica }

func (h hangsWrites) Apply(ctx context.Context, m replica.Mutation) error {
	<-ctx.Done()
	return ctx.Err()
}

// A digest-first read whose digest round lost C to a failure: C is live,
// and the read did not merge its data, so BLOCKING repair's additional
// write (AdditionalWritePolicy) must be able to go to it ("to every live
// replica whose data the read did not merge", doc.go and additionalWrites),
// as it does on the data-and-digests path. fetchData's fastest() dropped
// every replica whose digest failed from plan.order, so withoutVersion
// found no target and the read timed out although C could take the write.
func TestDigestFirstAdditionalWriteGoesToReplicaWhoseDigestFailed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B))
		e.behave(t, B, constant(ms(1.1)))
		o := policy(t, "NEVER")
		o.Strategy = coordinator.DigestFirst
		o.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
		c := failedDigestCoordinator(t, e, o, A, func(r replica.Replica) replica.Replica { return hangsWrites{r} })

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.Equal(t, []string{A}, res.Trace.Repaired)
		assert.True(t, res.Trace.AdditionalWrite.Fired, "the additional write was due at 5 ms; suppressed: %v", res.Trace.AdditionalWrite.Suppressed)
		assert.Equal(t, C, res.Trace.AdditionalWrite.To)
		require.NoError(t, err, "B holds the merge and C, live and healthy for writes, can acknowledge it")
	})
}

// failedDigestCoordinator reads e's cluster under o, with C failing its
// digest reads and id's replica wrapped by wrap; closed when t ends.
func failedDigestCoordinator(t *testing.T, e *env, o coordinator.TableOptions, id string, wrap func(replica.Replica) replica.Replica) *coordinator.Coordinator {
	locate := wrapIDs(e.cluster, map[string]bool{id: true, C: true}, func(r replica.Replica) replica.Replica {
		if r.Endpoint().ID == id {
			return wrap(r)
		}
		return failsDigests{r}
	})
	c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: e.cluster, DefaultTable: o,
		ReadTimeout: ms(100), Snitch: coordinator.SnitchConfig{Disabled: true}})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// slowData answers data reads after 50 ms; digests as the replica does.
type slowData struct{ replica.Replica }

func (s slowData) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if !cmd.DigestOnly {
		select {
		case <-time.After(ms(50)):
		case <-ctx.Done():
			return replica.Response{}, ctx.Err()
		}
	}
	return s.Replica.Read(ctx, cmd)
}

// A replica whose digest request failed was contacted: the reconcile
// round's hedge goes to "the closest replica not contacted at all", so
// not to it, though it now follows the stragglers in a digest-first read's
// order.
func TestDigestFirstReconcileHedgeSkipsReplicaWhoseDigestFailed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v2", 20), B))
		e.behave(t, B, constant(ms(1.1)))
		o := policy(t, "5ms")
		o.Strategy = coordinator.DigestFirst
		c := failedDigestCoordinator(t, e, o, B, func(r replica.Replica) replica.Replica { return slowData{r} })

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		require.NoError(t, err)
		require.True(t, res.Trace.DigestMismatch)
		assert.False(t, res.Trace.ReconcileHedge.Fired, "the reconcile round hedged to %s", res.Trace.ReconcileHedge.To)
		assert.Equal(t, 1, countRequestsTo(res.Trace, C), "C's failed digest only")
	})
}

func countRequestsTo(tr coordinator.Trace, id string) int {
	n := 0
	for _, rq := range tr.Requests {
		if rq.Endpoint == id {
			n++
		}
	}
	return n
}
