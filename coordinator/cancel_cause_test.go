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
)

// errShutdown is the cause a caller gives its cancellation.
var errShutdown = errors.New("client shutting down")

// A read the caller cancels with a cause (context.WithCancelCause) fails
// with an error that matches both context.Canceled and the cause: it
// carried context.Canceled alone, so the caller could not tell its own
// reasons apart.
func TestACancelledReadKeepsTheCallersCause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		e.behave(t, A, constant(ms(100)))
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(ms(7), func() { cancel(errShutdown) })
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, errShutdown)
		assert.Equal(t, int64(1), e.c.Metrics().Total.Cancelled)
	})
}

// A read that passes the caller's deadline given a cause
// (context.WithDeadlineCause) is a *ReadTimeoutError that matches both
// context.DeadlineExceeded and the cause.
func TestATimedOutReadKeepsTheCallersCause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		e.behave(t, A, constant(ms(100)))
		ctx, cancel := context.WithDeadlineCause(context.Background(), time.Now().Add(ms(20)), errShutdown)
		defer cancel()
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, 2, timeout.Received)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.ErrorIs(t, err, errShutdown)
	})
}

// ReadMany's keys keep the cause too: those read when the caller cancelled
// and those not started yet, paged or not.
func TestReadManyKeepsTheCallersCause(t *testing.T) {
	for _, pageSize := range []int{0, 2} {
		t.Run(fmt.Sprint("PageSize=", pageSize), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER")})
				keys := []string{"a", "b", "c"}
				seedRows(t, e, 1, keys...)
				c := lateKeysCoordinator(t, e, func(string) bool { return true })
				ctx, cancel := context.WithCancelCause(context.Background())
				time.AfterFunc(ms(7), func() { cancel(errShutdown) })
				res, err := c.ReadMany(ctx, coordinator.ManyRequest{Table: tbl, Keys: keys,
					Level: consistency.One, Concurrency: 1, PageSize: pageSize, NowInSec: now})
				require.NoError(t, err)
				for _, r := range res {
					assert.ErrorIs(t, r.Err, context.Canceled, r.Key)
					assert.ErrorIs(t, r.Err, errShutdown, r.Key)
				}
			})
		})
	}
}

// A cause that is a nil pointer (cancel((*T)(nil))) is left out of the
// read's error: errors.Is, in the coordinator's own counting or the
// caller's, would call its methods on nil.
func TestANilPointerCauseIsLeftOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		e.behave(t, A, constant(ms(100)))
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(ms(7), func() { cancel((*rpcError)(nil)) })
		var err error
		require.NotPanics(t, func() {
			_, err = e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		})
		assert.NotPanics(t, func() { errors.Is(err, errors.ErrUnsupported) })
		assert.ErrorIs(t, err, context.Canceled)
	})
}
