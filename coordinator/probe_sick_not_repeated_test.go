package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A probe of a replica still sick dates its score however it ends: timed
// out, lost to a hedge, cut by its caller's deadline, or cancelled by its
// caller, as a driver cancels each losing speculative execution. The next
// read does not probe it again. Released when its caller cancelled it, the
// probe went to the sick replica on every statement, which waited for it
// (a review's scenario).
func TestASickReplicasProbeIsNotRepeated(t *testing.T) {
	cases := []struct {
		name     string
		policy   string
		deadline time.Duration // the caller's, 0 for none
		cancelAt time.Duration // when the caller cancels the read, 0 for never
		// cancel cancels the caller's context once Read returned, as a
		// caller's deferred cancel does, before the losing probe's replica
		// returns from its cancelled request
		cancel bool
	}{
		{"timed out", "NEVER", 0, 0, false},
		{"lost to a hedge", "3ms", 0, 0, false},
		{"lost to a hedge, the caller's context cancelled after", "3ms", 0, 0, true},
		{"cut by the caller's deadline", "NEVER", ms(5), 0, false},
		{"cancelled by its caller", "NEVER", 0, ms(5), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := threeNodes(t)
				e := newEnvOn(t, cl, coordinator.Config{DefaultTable: policy(t, tc.policy),
					ReadTimeout: ms(100), HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
					Snitch:  coordinator.SnitchConfig{ResetInterval: ms(500)},
					Locator: wrapID(cl, A, func(r replica.Replica) replica.Replica { return slowToStop{r, ms(1)} })})
				expireDemotedA(t, e, ms(1000)) // A worse

				ctx := context.Background()
				if tc.deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.deadline)
					defer cancel()
				}
				ctx, cancel := context.WithCancel(ctx)
				if tc.cancelAt > 0 {
					time.AfterFunc(tc.cancelAt, cancel)
				}
				res, _ := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
				if tc.cancel {
					cancel()
				}
				require.Equal(t, A, firstContact(t, res), "the read probed A")
				time.Sleep(ms(2)) // the probe's replica returns
				settle()

				res, _, err := e.read(consistency.One)
				require.NoError(t, err)
				assert.NotEqual(t, A, firstContact(t, res), "A is not probed again\n%s", res.Trace)
				settle()
				cancel()
			})
		})
	}
}

// slowToStop is a replica that returns from a cancelled request a while
// after its context ended, as a request out on the network does.
type slowToStop struct {
	replica.Replica
	after time.Duration
}

func (r slowToStop) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := r.Replica.Read(ctx, cmd)
	if ctx.Err() != nil {
		time.Sleep(r.after)
	}
	return resp, err
}
