package coordinator_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// cancelledWhileAsked is a caller's context cancelled at the instant the
// read first asks it whether it ended, once at is past: the caller's
// cancel racing the read's own deadline, caught between two of the read's
// looks at it, made deterministic.
type cancelledWhileAsked struct {
	context.Context
	cancel  context.CancelCauseFunc
	at      time.Time
	flipped bool
}

func (c *cancelledWhileAsked) Err() error {
	if !c.flipped && !time.Now().Before(c.at) {
		c.flipped = true
		c.cancel(errShutdown)
		return nil
	}
	return c.Context.Err()
}

// A caller that cancels as the read times out gets an error that wraps
// context.Canceled and its cause: the read saw the context live, then
// cancelled, and wrapped the nil it had first seen ("read cancelled:
// %!w(<nil>)"), which matched neither.
func TestACancelRacingTheTimeoutKeepsTheCancellation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(50), DefaultTable: policy(t, "NEVER")})
		e.behave(t, A, constant(ms(100)))
		inner, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		ctx := &cancelledWhileAsked{Context: inner, cancel: cancel, at: time.Now().Add(ms(50))}
		_, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		assert.True(t, ctx.flipped, "the read never asked after its deadline")
		var timeout *consistency.ReadTimeoutError
		if !errors.As(err, &timeout) {
			assert.ErrorIs(t, err, context.Canceled)
			assert.ErrorIs(t, err, errShutdown)
		}
	})
}
