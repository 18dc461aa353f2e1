package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// codeError is an embedder's error whose methods read a field it may
// never have set: a transport's error compared by code.
type codeError struct{ code *int }

func (e codeError) Error() string        { return fmt.Sprintf("rpc error %d", *e.code) }
func (e codeError) Is(target error) bool { return *e.code == 1 }

// isOnly is codeError with a good Error: only its Is panics.
type isOnly struct{ codeError }

func (isOnly) Error() string { return "rpc error" }

// badErrors fails its reads with err, or panics with it.
type badErrors struct {
	replica.Replica
	err    error
	panics bool
}

func (b badErrors) Read(context.Context, replica.Command) (replica.Response, error) {
	if b.panics {
		panic(b.err)
	}
	return replica.Response{}, b.err
}

// A replica whose error's own methods panic (its Is, or its Error; as it
// is, wrapped, or panicked with) fails, with an error that says so and
// wraps nothing: errors.Is, walking it on the worker's goroutine, crashed
// the process, and the caller's errors.Is or its logger would have too.
func TestAReplicaErrorWhoseMethodsPanicFails(t *testing.T) {
	for name, c := range map[string]badErrors{
		"Is panics":                {err: isOnly{}},
		"Error panics":             {err: codeError{}},
		"a wrapped Is panics":      {err: fmt.Errorf("adapter: %w", isOnly{})},
		"panicked with, Is panics": {err: isOnly{}, panics: true},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, coordinator.Config{})
				locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { c.Replica = r; return c })
				co, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "NEVER"),
					Snitch: coordinator.SnitchConfig{Disabled: true}})
				require.NoError(t, err)
				defer co.Close()

				_, err = co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
				var failure *consistency.ReadFailureError
				require.ErrorAs(t, err, &failure)
				assert.ErrorContains(t, failure.Reasons[A], "whose methods panic")
				assert.False(t, errors.Is(err, context.Canceled), "inspecting the read's error panics not")
				_ = err.Error()
			})
		})
	}
}
