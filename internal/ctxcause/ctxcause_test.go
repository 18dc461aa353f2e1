package ctxcause

import (
	"context"
	"errors"
	"testing"
)

type nilErr struct{}

func (*nilErr) Error() string { return "nil" }

func TestErr(t *testing.T) {
	if err := Err(context.Background()); err != nil {
		t.Fatalf("a live context: %v", err)
	}
	mine := errors.New("shutting down")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(mine)
	if err := Err(ctx); !errors.Is(err, context.Canceled) || !errors.Is(err, mine) {
		t.Errorf("with a cause: %v", err)
	}
	ctx, cancel = context.WithCancelCause(context.Background())
	cancel(nil)
	if err := Err(ctx); err != context.Canceled {
		t.Errorf("without a cause: %v", err)
	}
	ctx, cancel = context.WithCancelCause(context.Background())
	cancel((*nilErr)(nil))
	if err := Err(ctx); err != context.Canceled {
		t.Errorf("a nil pointer cause: %v", err)
	}
}
