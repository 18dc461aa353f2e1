package coordinator_test

import (
	"context"
	"errors"
	"fmt"
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

// DrainRepairs ended by a context with a cause of its own returns ctx's
// error, as its doc says, and the cause with it, as Read does: a shutdown
// that drains under context.WithTimeoutCause, or cancels the drain with a
// cause, must still tell a drain that ran out of time from one cancelled
// (errors.Is(err, context.DeadlineExceeded)), where context.Cause alone is
// the caller's cause and wraps neither. A cause that is a nil pointer is
// left out, as Read leaves it out (TestANilPointerCauseIsLeftOut): returned
// as the error, its methods would run on nil.
func TestDrainRepairsEndedWithACauseWrapsTheContextsError(t *testing.T) {
	mine := errors.New("shutting down")
	for _, tt := range []struct {
		name  string
		ctx   func() (context.Context, func())
		want  error
		cause error // nil: a cause left out, as Read leaves out a nil pointer
	}{
		{"deadline", func() (context.Context, func()) {
			return context.WithTimeoutCause(context.Background(), ms(10), mine)
		}, context.DeadlineExceeded, mine},
		{"cancel", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(ms(10), func() { cancel(mine) })
			return ctx, func() { cancel(nil) }
		}, context.Canceled, mine},
		{"nil pointer cause", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(ms(10), func() { cancel((*rpcError)(nil)) })
			return ctx, func() { cancel(nil) }
		}, context.Canceled, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e, c := drainEnv(t, func(r replica.Replica) replica.Replica { return r })
				e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(time.Second)})
				_, err := c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
				require.NoError(t, err)
				ctx, cancel := tt.ctx()
				defer cancel()
				err = c.DrainRepairs(ctx)
				require.NotPanics(t, func() { _ = fmt.Sprint(err) }, "a nil pointer cause returned as the error")
				assert.ErrorIs(t, err, tt.want, "%s: %v", tt.name, err)
				if tt.cause != nil {
					assert.ErrorIs(t, err, tt.cause, "%s: %v", tt.name, err)
				}
			})
		})
	}
}
