package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// failsWithCount fails every read with err, and with a Response that
// claims tombstones met: what a transport may decode from a failure's
// frame, and what Go's convention says a caller ignores beside an error.
type failsWithCount struct {
	replica.Replica
	err        error
	tombstones int
}

func (f failsWithCount) Read(context.Context, replica.Command) (replica.Response, error) {
	return replica.Response{Tombstones: f.tombstones}, f.err
}

// Trace.Tombstones is what answers met, or a refusal's own count, and a
// refusal is a failure, not a warning: a failed request's Response is no
// answer. Its Tombstones were taken as an answer's, so a read that A
// failed as overloaded, answered by B and C without a tombstone, traced
// 5000 and counted a warning, and a refusal that came with its count
// warned beside failing.
func TestAFailedRequestsResponseMeetsNoTombstones(t *testing.T) {
	overwhelmed := &replica.TombstoneOverwhelmingError{Table: tbl, Key: key, Tombstones: 101, Threshold: 100}
	for _, c := range []struct {
		name       string
		err        error
		tombstones int // the trace's
	}{
		{"overloaded", replica.ErrOverloaded, 0},
		{"refused", fmt.Errorf("transport: %w", overwhelmed), 101},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := policy(t, "50ms") // A's failure is hedged at once
				o.TombstoneWarnThreshold = 10
				e := newEnv(t, coordinator.Config{})
				fail := func(r replica.Replica) replica.Replica { return failsWithCount{r, c.err, 5000} }
				co, err := coordinator.New(coordinator.Config{Locator: wrapping(e.cluster, 1, fail),
					Liveness: e.cluster, DefaultTable: o})
				require.NoError(t, err)
				defer co.Close()

				res, err := co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
				require.Equal(t, A, res.Trace.Requests[0].Endpoint)
				require.ErrorIs(t, res.Trace.Requests[0].Err, c.err)
				if errors.Is(c.err, replica.ErrTombstoneOverwhelming) {
					require.ErrorIs(t, err, replica.ErrTombstoneOverwhelming)
				} else {
					require.NoError(t, err)
				}
				require.Equal(t, c.tombstones, res.Trace.Tombstones)
				require.False(t, res.Trace.TombstoneWarning)
				require.Zero(t, co.Metrics().Total.TombstoneWarnings)
			})
		})
	}
}
