package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

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
		locate := wrapIDs(e.cluster, map[string]bool{A: true, C: true}, func(r replica.Replica) replica.Replica {
			if r.Endpoint().ID == A {
				return hangsWrites{r}
			}
			return failsDigests{r}
		})
		c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: e.cluster, DefaultTable: o,
			ReadTimeout: ms(100), Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()

		res, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.Equal(t, []string{A}, res.Trace.Repaired)
		assert.True(t, res.Trace.AdditionalWrite.Fired, "the additional write was due at 5 ms; suppressed: %v", res.Trace.AdditionalWrite.Suppressed)
		assert.Equal(t, C, res.Trace.AdditionalWrite.To)
		require.NoError(t, err, "B holds the merge and C, live and healthy for writes, can acknowledge it")
	})
}
