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
	"github.com/readpath/readpath/replica/replicatest"
)

// DrainRepairs' error, when its context ends with a repair still being
// written, wraps the context's own cause as well as its error, as its doc
// says Read's does.
func TestDrainRepairsErrorWrapsItsContextsCause(t *testing.T) {
	cause := errors.New("shutdown budget spent")
	for _, c := range []struct {
		name string
		ctx  func() (context.Context, func())
		err  error
	}{
		{"cancel cause", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(cause)
			return ctx, func() {}
		}, context.Canceled},
		{"deadline cause", func() (context.Context, func()) {
			return context.WithTimeoutCause(context.Background(), ms(10), cause)
		}, context.DeadlineExceeded},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e, co := drainEnv(t, func(r replica.Replica) replica.Replica { return r })
				e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(time.Second)})
				_, err := co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
				require.NoError(t, err)
				ctx, cancel := c.ctx()
				defer cancel()
				err = co.DrainRepairs(ctx)
				assert.ErrorIs(t, err, c.err)
				assert.ErrorIs(t, err, cause)
			})
		})
	}
}
