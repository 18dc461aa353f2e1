package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// rpcError is an embedder's error type whose Unwrap, like most, reads
// its receiver.
type rpcError struct{ err error }

func (e *rpcError) Error() string { return "rpc: " + e.err.Error() }
func (e *rpcError) Unwrap() error { return e.err }

// typedNil reads with Go's classic non-nil error: a nil *rpcError, which
// an adapter that declares `var err *rpcError` and returns it on success
// hands the coordinator, as it is or wrapped.
type typedNil struct {
	replica.Replica
	wrapped bool
}

func (n typedNil) Read(context.Context, replica.Command) (replica.Response, error) {
	var err error = (*rpcError)(nil)
	if n.wrapped {
		err = fmt.Errorf("adapter: %w", err)
	}
	return replica.Response{}, err
}

// A replica whose Read returns a nil pointer as its error, or an error
// wrapping one, fails, as the retry executor takes such an attempt, with
// an error that names the type: errors.Is, walking it on the worker's
// goroutine, crashed the process (a nil pointer dereference in
// (*rpcError).Unwrap).
func TestAReplicaReturningANilPointerAsItsErrorFails(t *testing.T) {
	for _, wrapped := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{})
			locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return typedNil{r, wrapped} })
			c, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "NEVER"),
				Snitch: coordinator.SnitchConfig{Disabled: true}})
			require.NoError(t, err)
			defer c.Close()

			_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
			var failure *consistency.ReadFailureError
			require.ErrorAs(t, err, &failure)
			assert.ErrorIs(t, failure.Reasons[A], retry.ErrTypedNil)
			assert.ErrorContains(t, err, "nil *coordinator_test.rpcError")
		})
	}
}

// A repair write that returns a nil pointer as its error fails as well.
func TestARepairWriteReturningANilPointerAsItsErrorFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, _ := newStaleEnv(t, repair.Blocking)
		locate := wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica {
			if r.Endpoint().ID == B {
				return typedNilApply{r}
			}
			return r
		})
		c, err := coordinator.New(coordinator.Config{Locator: locate, Liveness: e.cluster})
		require.NoError(t, err)
		defer c.Close()

		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var rw *coordinator.RepairWriteError
		require.ErrorAs(t, err, &rw)
		assert.ErrorIs(t, rw, retry.ErrTypedNil)
	})
}

// typedNilApply answers reads, and returns a nil pointer from Apply.
type typedNilApply struct{ replica.Replica }

func (typedNilApply) Apply(context.Context, replica.Mutation) error {
	var err *rpcError
	return err
}

// A Locator that returns a nil pointer as its error fails the read with
// an error naming the type, where Read panicked counting the error.
func TestALocatorReturningANilPointerAsItsErrorFails(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{
		Locator: coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) {
			var err *rpcError
			return nil, consistency.Replication{}, err
		}),
	})
	require.NoError(t, err)
	defer c.Close()

	_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
	assert.ErrorIs(t, err, retry.ErrTypedNil)
	assert.ErrorContains(t, err, "Locator returned a nil *coordinator_test.rpcError")
}
