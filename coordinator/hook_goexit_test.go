package coordinator_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A hook that calls runtime.Goexit (t.FailNow in a test double) ends the
// library's goroutine it runs on, where a panic would be recovered: these
// check that the library goes on as after the panic.

// goexitOutcomes is an outcome reporter that calls runtime.Goexit for one
// replica's outcome.
type goexitOutcomes struct{ id string }

func (g goexitOutcomes) ReportOutcome(o replica.Outcome) {
	if o.Endpoint.ID == g.id {
		runtime.Goexit()
	}
}

// An Outcomes that calls Goexit on a request's worker does not keep the
// replica's answer from the read. It used to end the worker before the
// answer was handed over, and the QUORUM read waited for B's answer until
// its deadline, then failed.
func TestOutcomesThatCallsGoexitStillDeliversTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		c, err := coordinator.New(coordinator.Config{
			Locator: e.cluster, Liveness: e.cluster, Outcomes: goexitOutcomes{B},
			Snitch: coordinator.SnitchConfig{Disabled: true}, DefaultTable: policy(t, "NEVER"),
		})
		require.NoError(t, err)
		defer c.Close()
		start := time.Now()
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
		assert.NoError(t, err)
		assert.Less(t, time.Since(start), time.Second, "the read waited for B's answer until its deadline")
	})
}

// goexitRead is a replica whose Read calls runtime.Goexit.
type goexitRead struct{ replica.Replica }

func (goexitRead) Read(context.Context, replica.Command) (replica.Response, error) {
	runtime.Goexit()
	return replica.Response{}, nil
}

// A replica whose Read calls Goexit fails at once, with a PanicError, as
// one that panics does. Its worker used to end with no answer handed over,
// and the read at ALL waited for it until its deadline.
func TestReplicaThatCallsGoexitFailsAsOneThatPanics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		c, err := coordinator.New(coordinator.Config{
			Locator:  wrapID(e.cluster, B, func(r replica.Replica) replica.Replica { return goexitRead{r} }),
			Liveness: e.cluster, DefaultTable: policy(t, "NEVER"),
		})
		require.NoError(t, err)
		defer c.Close()
		start := time.Now()
		_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.All})
		var pe *coordinator.PanicError
		require.True(t, errors.As(err, &pe), "%v", err)
		assert.Equal(t, B, pe.Endpoint.ID)
		assert.Less(t, time.Since(start), time.Second, "the read waited for B's answer until its deadline")
		synctest.Wait()
		for _, r := range c.Metrics().Replicas {
			assert.Zero(t, r.Outstanding, "%s's request is still counted in flight", r.Endpoint.ID)
		}
	})
}
