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
	"github.com/readpath/readpath/coordinator/retry"
	"github.com/readpath/readpath/replica"
)

// panicsNil panics with a nil *rpcError, as an adapter does that panics
// with an error variable it never set.
type panicsNil struct{ replica.Replica }

func (panicsNil) Read(context.Context, replica.Command) (replica.Response, error) {
	panic((*rpcError)(nil))
}

// A replica that panics with a nil pointer of an error type fails with a
// *PanicError that unwraps to ErrTypedNil, not to the pointer: errors.Is
// on the read's error called (*rpcError).Unwrap on nil and crashed.
func TestAReplicaPanickingWithANilPointerFailsSafely(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		locate := wrapping(e.cluster, 1, func(r replica.Replica) replica.Replica { return panicsNil{r} })
		c, err := coordinator.New(coordinator.Config{Locator: locate, DefaultTable: policy(t, "NEVER"),
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, err)
		defer c.Close()

		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var failure *consistency.ReadFailureError
		require.ErrorAs(t, err, &failure)
		var p *coordinator.PanicError
		require.ErrorAs(t, failure.Reasons[A], &p)
		assert.NotPanics(t, func() { errors.Is(err, errors.ErrUnsupported) })
		assert.ErrorIs(t, err, retry.ErrTypedNil)
	})
}
