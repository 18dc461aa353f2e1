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

// A read whose caller's deadline (or cancel) passes while a hook holds its
// goroutine, after its quorum came in, succeeds: the answers wait on the
// round's channel, and the read takes them before it heeds its caller. It
// picked between the two at random, and about a third of these reads
// failed with "received only 1 responses", counted in Timeouts, their
// first round recorded at 21 ms, a latency no replica took; with the read
// timeout passing then instead, every read succeeded. Here the hedge to C
// goes at 1 ms, the Observer told of it takes 20 ms, C answers at 2 ms,
// B's digest at 8 ms, the caller gives up at 10 ms. (Found by a review.)
func TestAQuorumInBeforeTheCallerGaveUpInAHookIsTaken(t *testing.T) {
	for _, how := range []string{"read timeout", "caller's deadline", "caller's cancel"} {
		t.Run(how, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cl := threeNodes(t)
				timeout := ms(100)
				if how == "read timeout" {
					timeout = ms(10)
				}
				c, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, ReadTimeout: timeout,
					Snitch: coordinator.SnitchConfig{Disabled: true}, HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
					Observer: slowHedgeObserver(coordinator.PhaseInitial, ms(20)), DefaultTable: policy(t, "1ms")})
				require.NoError(t, err)
				defer c.Close()
				require.NoError(t, cl.Replica(B).SetBehavior(constant(ms(8))))
				req := coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum}
				for i := range 20 {
					ctx, cancel := context.WithCancel(context.Background())
					switch how {
					case "caller's deadline":
						ctx, cancel = context.WithTimeout(context.Background(), ms(10))
					case "caller's cancel":
						time.AfterFunc(ms(10), cancel)
					}
					res, err := c.Read(ctx, req)
					cancel()
					require.NoError(t, err, "read %d\n%s", i, res.Trace)
					settle()
					time.Sleep(time.Second)
				}
				tm, ok := c.TableMetrics(tbl)
				require.True(t, ok)
				assert.Zero(t, tm.Timeouts)
			})
		})
	}
}
