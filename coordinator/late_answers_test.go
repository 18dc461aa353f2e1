package coordinator_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// checkOwnTrace checks that a read's trace holds only its own
// requests: to the three replicas, each ended or pending, none answered
// before it was sent.
func checkOwnTrace(t *testing.T, tr coordinator.Trace) {
	t.Helper()
	for i, rq := range tr.Requests {
		assert.Contains(t, []string{A, B, C}, rq.Endpoint, i)
		if rq.Outcome != coordinator.Pending {
			assert.GreaterOrEqual(t, rq.Done, rq.Sent, i)
		}
		assert.LessOrEqual(t, rq.Done, tr.Duration, i)
	}
}

// A replica that ignores its context answers each read after the read
// ended, while the next reads run on the recycled read state, round
// channels and timer, and its late answers land in the middle of them.
// Every read must end as its own replicas decide: the answer of the
// partition it asked for, or a typed timeout at its deadline, never an
// answer of an earlier read; and when all is over, nothing is abandoned.
func TestLateAnswersDoNotLeakIntoNextReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), DefaultTable: policy(t, "3ms"), HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		const keys = 12
		for i := range keys {
			k := fmt.Sprintf("key-%d", i)
			require.NoError(t, e.cluster.Pin(tbl, k, A, B, C))
			require.NoError(t, e.cluster.Seed(tbl, row(k, "v-"+k, 10)))
		}
		late := int64(0)
		for i := range 60 {
			k := fmt.Sprintf("key-%d", i%keys)
			// A answers 12 to 17 ms after each request: after its read,
			// during a later one. B is late every third read, C every
			// fifth: a read hedges to C at 3 ms and succeeds when both
			// answer, and times out otherwise.
			e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(float64(12 + i%6))), Fault: replicatest.IgnoresContext()})
			if i%3 == 0 {
				e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(20)), Fault: replicatest.IgnoresContext()})
			} else {
				e.behave(t, B, constant(ms(1)))
			}
			if i%5 == 0 {
				e.behave(t, C, replicatest.Behavior{Latency: replicatest.Constant(ms(20)), Fault: replicatest.IgnoresContext()})
			} else {
				e.behave(t, C, constant(ms(2)))
			}
			start := time.Now()
			res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.Quorum})
			took := time.Since(start)
			if i%3 == 0 || i%5 == 0 { // A and one of B and C late: one answer of two
				var timeout *consistency.ReadTimeoutError
				require.ErrorAs(t, err, &timeout, "read %d", i)
				assert.Equal(t, ms(10), took, "read %d", i)
			} else {
				require.NoError(t, err, "read %d", i)
				assert.Equal(t, k, res.Partition.Key, "read %d", i)
				assert.Equal(t, []replica.Row{replica.NewRow("r", replica.Live("v", "v-"+k, 10))}, res.Partition.Rows, "read %d", i)
				assert.Less(t, took, ms(10), "read %d", i)
			}
			checkOwnTrace(t, res.Trace)
			time.Sleep(ms(float64(i % 4))) // the next read starts 0 to 3 ms later
		}
		time.Sleep(ms(30))
		settle()
		for _, id := range []string{A, B, C} {
			late += e.stats(id).LateAnswers
		}
		assert.Positive(t, late)
		for id, n := range abandonedCounts(t, e.c) {
			assert.Zero(t, n, id)
		}
		for _, r := range e.c.Metrics().Replicas {
			assert.Zero(t, r.Outstanding, r.Endpoint.ID)
		}
	})
}

// Concurrent reads over replicas that answer late: many read states,
// channels and timers in flight and recycled at once.
func TestLateAnswersConcurrentReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{ReadTimeout: ms(10), DefaultTable: policy(t, "2ms"), HedgeBudget: coordinator.HedgeBudget{Unlimited: true},
			Snitch: coordinator.SnitchConfig{Disabled: true}})
		e.behave(t, A, replicatest.Behavior{Latency: replicatest.Constant(ms(11)), Fault: replicatest.IgnoresContext()})
		e.behave(t, B, replicatest.Behavior{Latency: replicatest.Constant(ms(1))})
		e.behave(t, C, replicatest.Behavior{Latency: replicatest.Constant(ms(3))})
		type out struct {
			res coordinator.Result
			err error
			k   string
		}
		outs := make(chan out, 64)
		for g := range 8 {
			go func() {
				for i := range 8 {
					k := fmt.Sprintf("g%d-%d", g, i)
					res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: k, Level: consistency.Quorum})
					outs <- out{res, err, k}
				}
			}()
		}
		for range 64 {
			o := <-outs
			require.NoError(t, o.err, o.k)
			assert.Equal(t, o.k, o.res.Partition.Key)
			checkOwnTrace(t, o.res.Trace)
		}
		time.Sleep(ms(20))
		settle()
		assert.Positive(t, e.stats(A).LateAnswers)
		for id, n := range abandonedCounts(t, e.c) {
			assert.Zero(t, n, id)
		}
	})
}
