package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// A read whose read timeout passes while the Locator places it has
// already timed out: like one whose caller's deadline passed then, it
// sends nothing, and the replicas it never waited on are not charged a
// timeout (a miss) for it. It sent its requests, which timed out 1 ns
// later, each a miss and a timeout of its replica. (Found by a review.)
func TestAReadTimeoutUsedUpByPlanningSendsNothing(t *testing.T) {
	for _, callers := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			cl := threeNodes(t)
			loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
				time.Sleep(ms(60)) // a slow metadata lookup
				return cl.Locate(table, k)
			})
			e := newEnvOn(t, cl, coordinator.Config{ReadTimeout: ms(50), Locator: loc, DefaultTable: policy(t, "NEVER")})
			ctx := context.Background()
			if callers {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, ms(50))
				defer cancel()
			}
			start := time.Now()
			res, err := e.c.Read(ctx, coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum})
			took := time.Since(start)
			var te *consistency.ReadTimeoutError
			assert.ErrorAs(t, err, &te, "callers deadline %v", callers)
			settle()
			var timeouts int64
			for _, r := range e.c.Metrics().Replicas {
				timeouts += r.Timeouts
			}
			assert.Empty(t, res.Trace.Requests, "callers deadline %v", callers)
			assert.Zero(t, e.totalReads(), "callers deadline %v: requests sent after the read's deadline", callers)
			assert.Zero(t, timeouts, "callers deadline %v: replicas charged timeouts", callers)
			assert.Equal(t, ms(60), took, "callers deadline %v", callers)
		})
	}
}

// After one read whose Locator outlasted the read timeout, the next reads
// still go to the replicas the snitch ranked first: A and B did nothing
// wrong (they answer in 1 ms) and keep their rank over C's 5 ms.
func TestASlowLocatorDemotesNoReplica(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cl := threeNodes(t)
		slow := false
		loc := coordinator.LocatorFunc(func(table, k string) ([]replica.Replica, consistency.Replication, error) {
			if slow {
				time.Sleep(ms(60))
			}
			return cl.Locate(table, k)
		})
		e := newEnvOn(t, cl, coordinator.Config{ReadTimeout: ms(50), Locator: loc, DefaultTable: policy(t, "NEVER")})
		e.behave(t, C, constant(ms(5))) // C is the slowest replica
		for range 20 {                  // the snitch learns A, B at 1 ms, C at 5 ms
			_, _, err := e.read(consistency.All)
			assert.NoError(t, err)
		}
		time.Sleep(time.Second)
		slow = true
		_, _, err := e.read(consistency.Quorum) // the Locator takes 60 ms
		assert.Error(t, err)
		slow = false
		settle()
		time.Sleep(ms(200))
		res, _, err := e.read(consistency.Quorum)
		assert.NoError(t, err)
		var asked []string
		for _, rq := range res.Trace.Requests {
			asked = append(asked, rq.Endpoint)
		}
		assert.NotContains(t, asked, C, "C, the slow replica, is asked after a slow Locator")
		settle()
	})
}
