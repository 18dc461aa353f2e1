package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
)

// readByDeadline reads key at QUORUM under a caller's deadline d.
func readByDeadline(c *coordinator.Coordinator, d time.Duration) (coordinator.Result, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	res, err := c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
	return res, time.Since(start), err
}

// A request refused unsent for its replica's backlog is replaced at once,
// free of the budgets, so whether the table's threshold (40 ms) falls
// before the caller's deadline does not matter: with a 50 ms deadline or a
// 30 ms one the read completes at 1 ms on C. Under the 30 ms deadline it
// failed at once, naming the refusal, while C was live and idle (found by
// a review of availability in every phase).
func TestRefusedRequestReplacedWhateverTheCallersDeadline(t *testing.T) {
	for _, deadline := range []float64{50, 30} {
		synctest.Test(t, func(t *testing.T) {
			e := newEnv(t, coordinator.Config{ReadTimeout: ms(1000), MaxAbandonedPerReplica: 1,
				DefaultTable: policy(t, "40ms"), Snitch: coordinator.SnitchConfig{Disabled: true}})
			e.hangs(t, A)
			defer drain()
			e.timeOut(t, 1, consistency.All) // A now holds its cap of abandoned requests

			res, took, err := readByDeadline(e.c, ms(deadline))
			require.NoError(t, err, "deadline %v ms: the refused request to A is not replaced\n%s", deadline, res.Trace)
			assert.Equal(t, 1, refusedIn(res.Trace), "deadline %v ms", deadline)
			assert.True(t, res.Trace.Hedge.Fired, "deadline %v ms", deadline)
			assert.Equal(t, C, res.Trace.Hedge.To, "deadline %v ms", deadline)
			assert.Equal(t, ms(1), took, "deadline %v ms", deadline)
		})
	}
}

// A failure hedges at once when the requests still out can no longer
// complete the read, in the first round as in the reconcile round,
// whatever the threshold and the caller's deadline. With the threshold (40
// ms) past the caller's 30 ms deadline, the first round failed with a
// ReadFailureError at 0 ms although C was live, where the reconcile round
// (B's reconcile read failing) went to C at once.
func TestFirstRoundFailureHedgesWhateverTheCallersDeadline(t *testing.T) {
	for _, c := range []struct {
		name     string
		failing  string // fails its data reads
		deadline float64
	}{
		{"first round, deadline past the threshold", A, 50},
		{"reconcile round, deadline before the threshold", B, 30},
		{"first round, deadline before the threshold", A, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				co := failingDataRound(t, c.failing, ms(1000), "40ms")
				defer co.Close()

				res, took, err := readByDeadline(co, ms(c.deadline))
				require.NoError(t, err, "%s\n%s", c.name, res.Trace)
				assert.Less(t, took, ms(10), c.name)
				settle()
			})
		})
	}
}
