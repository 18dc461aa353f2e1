package replicatest_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
)

// lateLook is an ended context whose Done takes a moment to return, as
// for a caller descheduled before its select.
type lateLook struct{ context.Context }

func (c lateLook) Done() <-chan struct{} {
	time.Sleep(time.Millisecond)
	return c.Context.Done()
}

// The RPC adapter that TestCorrectAdaptersBuiltOtherwiseConform holds
// correct fails every Apply under a passed deadline, as the suite's
// passed_deadline check demands. Its select picked at random between the
// ended context and a write already done, so the check failed now and
// then under load (a CI flake, found by a review).
func TestTheRPCAdapterFailsEveryApplyPastItsDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := rpcReplica{newMapReplica(mutant{})}
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		for i := range 20 { // the write is done by the time Done returns
			err := r.Apply(lateLook{ctx}, replica.Mutation{Table: "t", Partition: replica.NewPartition("k")})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Apply %d under a passed deadline: %v", i, err)
			}
		}
	})
}
